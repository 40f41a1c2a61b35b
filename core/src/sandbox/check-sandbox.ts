import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { type EnvironmentPolicyConfig, toolEnvironment } from '../agent/tool-environment.js';
import type { CommandSandbox } from './command-sandbox.js';
import { hiddenPaths } from './hidden-paths.js';

/** One line of `cw sandbox check`: what was tried from inside the sandbox, what it should find and what it found. */
export interface SandboxCheckRow {
  /** A label, never a path: `~/.ssh`, `cw home`, `workspace`, `network`. */
  readonly what: string;
  readonly expected: 'hidden' | 'read-only' | 'writable' | 'refused';
  /** What the probe inside found; `absent` when there is nothing at that path on this machine. */
  readonly found: 'hidden' | 'visible' | 'read-only' | 'writable' | 'refused' | 'connected' | 'absent' | 'error';
  readonly ok: boolean;
}

// Run inside the sandbox as `node -e`: tries each check and prints one JSON object of results.
const PROBE_SOURCE = `
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const checks = JSON.parse(process.argv[1]);
const out = {};
const read = (target) => {
  try {
    const info = fs.statSync(target);
    if (info.isDirectory()) return fs.readdirSync(target).length === 0 ? 'hidden' : 'visible';
    return fs.readFileSync(target).length === 0 ? 'hidden' : 'visible';
  } catch (error) {
    return error.code === 'ENOENT' || error.code === 'EACCES' || error.code === 'EPERM' ? 'hidden' : 'error';
  }
};
const write = (target) => {
  try {
    if (fs.statSync(target).isDirectory()) {
      const file = path.join(target, '.cw-sandbox-check-' + process.pid);
      fs.writeFileSync(file, '');
      fs.unlinkSync(file);
    } else {
      fs.closeSync(fs.openSync(target, 'a'));
    }
    return 'writable';
  } catch (error) {
    return ['EROFS', 'EACCES', 'EPERM'].includes(error.code) ? 'read-only' : 'error';
  }
};
(async () => {
  for (const check of checks) {
    // The command's private temp folder is known only inside.
    if (check.path === '$TMPDIR') check.path = process.env.TMPDIR;
    if (check.kind === 'read') out[check.id] = read(check.path);
    else if (check.kind === 'env') out[check.id] = process.env[check.name] === undefined ? 'hidden' : 'visible';
    else if (check.kind === 'write') out[check.id] = write(check.path);
    else out[check.id] = await new Promise((resolve) => {
      const socket = net.connect(check.port, '127.0.0.1');
      socket.setTimeout(2000, () => { socket.destroy(); resolve('refused'); });
      socket.on('connect', () => { socket.destroy(); resolve('connected'); });
      socket.on('error', () => resolve('refused'));
    });
  }
  process.stdout.write(JSON.stringify(out));
})();
`;

type Check =
  | { id: string; kind: 'read' | 'write'; path: string }
  | { id: string; kind: 'connect'; port: number }
  | { id: string; kind: 'env'; name: string };

// Planted in the environment the probe is started from: the environment policy must keep it out.
const PLANTED_CREDENTIAL = 'CW_SANDBOX_CHECK_SECRET_TOKEN';

// node:child_process, node:net and node:fs load when a check runs.
const requireBuiltin = createRequire(import.meta.url);

/**
 * Runs one probe inside the sandbox, as the model's commands run, and says what it could and could not
 * see: every hidden path, the workspace and its temp folder, the home folder, `.git/hooks` and
 * `.git/config`, a connection to a port this process opens on loopback, and a credential planted in
 * cw's environment (docs/security.md, "What commands see of your environment").
 */
export async function checkSandbox(
  sandbox: CommandSandbox,
  options: {
    readonly workspace: string;
    readonly home: string;
    readonly cwHome: string;
    readonly denyRead: readonly string[];
    /** cw's own environment: the probe gets what the environment policy makes of it, as a command does. */
    readonly env: Readonly<Record<string, string | undefined>>;
    /** The config's route key variables and `sandbox.env`. */
    readonly config: EnvironmentPolicyConfig;
  },
): Promise<SandboxCheckRow[]> {
  const { existsSync } = requireBuiltin('node:fs') as typeof import('node:fs');
  const net = requireBuiltin('node:net') as typeof import('node:net');
  const { execFile } = requireBuiltin('node:child_process') as typeof import('node:child_process');
  const rows: { what: string; expected: SandboxCheckRow['expected']; check: Check | null }[] = [];
  const hiddenLabels = new Map(sandbox.hidden.map((entry) => [entry.label, entry.path]));
  for (const entry of hiddenPaths({ ...options, cwd: options.workspace })) {
    const path = hiddenLabels.get(entry.label);
    const id = `c${rows.length}`;
    rows.push({
      what: entry.label,
      expected: 'hidden',
      check: path === undefined ? null : { id, kind: 'read', path },
    });
  }
  const add = (what: string, expected: SandboxCheckRow['expected'], check: Check): void => {
    rows.push({ what, expected, check });
  };
  add('workspace', 'writable', { id: 'ws', kind: 'write', path: options.workspace });
  add('temp folder', 'writable', { id: 'tmp', kind: 'write', path: '$TMPDIR' });
  if (existsSync(options.home)) add('home folder', 'read-only', { id: 'home', kind: 'write', path: options.home });
  for (const [index, path] of sandbox.readOnly.entries())
    add(relative(options.workspace, path) || `read-only path ${index + 1}`, 'read-only', {
      id: `ro${index}`,
      kind: 'write',
      path,
    });

  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  add('network (a loopback port of this machine)', sandbox.network === 'on' ? 'writable' : 'refused', {
    id: 'net',
    kind: 'connect',
    port,
  });
  add("a credential in cw's environment", 'hidden', { id: 'env', kind: 'env', name: PLANTED_CREDENTIAL });
  const env = toolEnvironment({ ...options.env, [PLANTED_CREDENTIAL]: 'planted' }, [], options.config);
  const spec = JSON.stringify(rows.flatMap((row) => (row.check === null ? [] : [row.check])));
  const wrapped = await sandbox.wrap([process.execPath, '-e', PROBE_SOURCE, spec], {
    cwd: options.workspace,
    env,
  });
  try {
    const stdout = await new Promise<string>((resolve) => {
      execFile(wrapped.file, [...wrapped.args], { env: wrapped.env, timeout: 20_000 }, (_error, out) =>
        resolve(String(out)),
      );
    });
    let found: Record<string, string> = {};
    try {
      found = JSON.parse(stdout) as Record<string, string>;
    } catch {
      // The probe did not answer: every row says `error`.
    }
    return rows.map((row) => {
      const result = (row.check === null ? 'absent' : (found[row.check.id] ?? 'error')) as SandboxCheckRow['found'];
      const ok =
        result === 'absent' ||
        result === row.expected ||
        (row.expected === 'writable' && row.check?.kind === 'connect' && result === 'connected');
      return { what: row.what, expected: row.expected, found: result, ok };
    });
  } finally {
    server.close();
    await wrapped.release();
  }
}
