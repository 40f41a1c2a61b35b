// The rows `cw sandbox check` adds for what holds even when cw runs as root (docs/security.md, "Root,
// host sockets and limits"): no capability inside, `mount` refused, a Unix socket of this machine out
// of reach, the session's socket variables gone, the resource limits in force.
import type { CommandSandbox } from './command-sandbox.js';
import { HOST_SOCKET_VARIABLES } from './host-sockets.js';

/**
 * Probe code, spliced into the check's probe: one function per check kind, each answering the word
 * the row expects or what it found instead. String.raw keeps its regular expressions as written.
 */
export const HARDENING_PROBE = String.raw`
const HARDENING = {
  caps: () => /^CapEff:\s*0+$/m.test(fs.readFileSync('/proc/self/status', 'utf8')) ? 'none' : 'some',
  mount: () => {
    // A tmpfs over a folder the probe makes for it, taken down again at once if it was allowed: were
    // the probe ever run unconfined, nothing of the machine's is covered and nothing stays mounted.
    const mount = ['/usr/bin/mount', '/bin/mount'].find((file) => fs.existsSync(file));
    const umount = ['/usr/bin/umount', '/bin/umount'].find((file) => fs.existsSync(file));
    if (mount === undefined || umount === undefined) return 'error';
    let target;
    try {
      target = fs.mkdtempSync(require('node:path').join(process.env.TMPDIR || '/tmp', 'cw-mount-check-'));
    } catch {
      return 'error';
    }
    const run = (file, args) => require('node:child_process').spawnSync(file, args, { stdio: 'ignore' }).status;
    const allowed = run(mount, ['-t', 'tmpfs', 'cw-check', target]) === 0;
    if (allowed) run(umount, [target]);
    try { fs.rmdirSync(target); } catch {}
    return allowed ? 'allowed' : 'refused';
  },
  unix: (check) => new Promise((resolve) => {
    const socket = net.connect(check.path);
    socket.setTimeout(2000, () => { socket.destroy(); resolve('refused'); });
    socket.on('connect', () => { socket.destroy(); resolve('connected'); });
    socket.on('error', () => resolve('refused'));
  }),
  env: (check) => check.names.some((name) => name in process.env) ? 'set' : 'unset',
  limits: (check) => {
    const text = fs.readFileSync('/proc/self/limits', 'utf8');
    const soft = (name) => (new RegExp('^' + name + '\\s+(\\S+)', 'm').exec(text) ?? [])[1];
    // As root the process limit is the command's pids cgroup (RLIMIT_NPROC does not count root).
    const counted = !check.root || /cw-sandbox-/.test(fs.readFileSync('/proc/self/cgroup', 'utf8'));
    return counted && soft('Max processes') === String(check.processes) && soft('Max file size') === String(check.fileSize)
      ? 'in force' : 'missing';
  },
};
`;

/** One hardening row before the probe runs; `check` is what the probe is sent. */
export interface HardeningRow {
  readonly what: string;
  readonly expected: 'none' | 'refused' | 'unset' | 'in force';
  readonly check: { readonly id: string; readonly kind: 'caps' | 'mount' | 'unix' | 'env' | 'limits' } & Record<
    string,
    unknown
  >;
}

/**
 * The rows for this sandbox: all of them under bubblewrap, the socket variables under sandbox-exec
 * (it applies no limits and no capability set of its own). `socket` is a Unix socket this process listens on.
 */
export function hardeningRows(sandbox: CommandSandbox, socket: string): HardeningRow[] {
  const rows: HardeningRow[] = [
    {
      what: 'socket variables (SSH_AUTH_SOCK, TMUX, DISPLAY, …)',
      expected: 'unset',
      check: { id: 'envs', kind: 'env', names: [...HOST_SOCKET_VARIABLES] },
    },
  ];
  if (sandbox.kind !== 'bubblewrap') return rows;
  rows.unshift({ what: 'capabilities', expected: 'none', check: { id: 'caps', kind: 'caps' } });
  rows.push(
    { what: 'mount (a tmpfs on the temp folder)', expected: 'refused', check: { id: 'mount', kind: 'mount' } },
    { what: 'a Unix socket of this machine', expected: 'refused', check: { id: 'unix', kind: 'unix', path: socket } },
  );
  if (sandbox.limits !== null) {
    const { processes, file_size_mb } = sandbox.limits;
    rows.push({
      what: `limits (${processes} processes, ${file_size_mb} MiB a file)`,
      expected: 'in force',
      check: {
        id: 'limits',
        kind: 'limits',
        processes,
        fileSize: file_size_mb * 1024 * 1024,
        root: process.getuid?.() === 0,
      },
    });
  }
  return rows;
}

/** The environment the probe runs with: the command's, plus every socket variable pointing at `socket`. */
export function plantedSocketVariables(env: Readonly<Record<string, string>>, socket: string): Record<string, string> {
  const planted: Record<string, string> = { ...env };
  for (const name of HOST_SOCKET_VARIABLES) planted[name] = name === 'TMUX' ? `${socket},1,0` : socket;
  return planted;
}

/** The capabilities row's label once the probe answered: which user it ran as, inside and outside. */
export function capabilitiesLabel(uidInside: unknown): string {
  const outside = process.getuid?.() ?? 'unknown';
  return `capabilities (uid ${typeof uidInside === 'number' ? uidInside : 'unknown'} inside, ${outside} outside)`;
}
