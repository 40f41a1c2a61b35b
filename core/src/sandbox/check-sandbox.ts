import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { type EnvironmentPolicyConfig, toolEnvironment } from '../agent/tool-environment.js';
import type { CommandSandbox } from './command-sandbox.js';
import { HARDENING_PROBE, capabilitiesLabel, hardeningRows, plantedSocketVariables } from './hardening-checks.js';
import { hiddenPaths } from './hidden-paths.js';
import { trustedProgramFile } from './trusted-program.js';

/** One line of `cw sandbox check`: what was tried from inside the sandbox, what it should find and what it found. */
export interface SandboxCheckRow {
  /** A label, never a path: `~/.ssh`, `cw home`, `workspace`, `network`. */
  readonly what: string;
  readonly expected: 'hidden' | 'read-only' | 'writable' | 'refused' | 'trusted' | 'none' | 'unset' | 'in force';
  /** What the probe inside found; `absent` when there is nothing at that path on this machine. */
  readonly found:
    | 'hidden'
    | 'visible'
    | 'read-only'
    | 'writable'
    | 'refused'
    | 'connected'
    | 'absent'
    | 'error'
    | 'trusted'
    | 'untrusted'
    // The hardening rows (docs/security.md, "Root, host sockets and limits").
    | 'none'
    | 'some'
    | 'allowed'
    | 'unset'
    | 'set'
    | 'in force'
    | 'missing';
  readonly ok: boolean;
}

// Run inside the sandbox as `node -e`: tries each check and prints one JSON object of results.
const PROBE_SOURCE = `
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const checks = JSON.parse(process.argv[1]);
const out = { uid: process.getuid() };
${HARDENING_PROBE}
const read = (target) => {
  try {
    const info = fs.statSync(target);
    if (info.isDirectory()) return fs.readdirSync(target).length === 0 ? 'hidden' : 'visible';
    return fs.readFileSync(target).length === 0 ? 'hidden' : 'visible';
  } catch (error) {
    return error.code === 'ENOENT' || error.code === 'EACCES' || error.code === 'EPERM' ? 'hidden' : 'error';
  }
};
const refused = (error) => (['EROFS', 'EACCES', 'EPERM', 'EBUSY', 'EEXIST'].includes(error.code) ? 'refused' : 'error');
const create = (target) => {
  try {
    fs.writeFileSync(target, '', { flag: 'wx' });
    return 'writable';
  } catch (error) {
    return refused(error);
  }
};
const rename = (target) => {
  try {
    fs.renameSync(target, target + '-cw-check-' + process.pid);
    fs.renameSync(target + '-cw-check-' + process.pid, target);
    return 'writable';
  } catch (error) {
    return refused(error);
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
    else if (check.kind === 'credential') out[check.id] = process.env[check.name] === undefined ? 'hidden' : 'visible';
    else if (check.kind === 'write') out[check.id] = write(check.path);
    else if (check.kind === 'create') out[check.id] = create(check.path);
    else if (check.kind === 'rename') out[check.id] = rename(check.path);
    else if (check.kind in HARDENING) out[check.id] = await HARDENING[check.kind](check);
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
  | { id: string; kind: 'read' | 'write' | 'create' | 'rename' | 'unix'; path: string }
  | { id: string; kind: 'connect'; port: number }
  | { id: string; kind: 'credential'; name: string }
  | { id: string; kind: 'caps' | 'mount' }
  | { id: string; kind: 'env'; names: readonly string[] }
  | { id: string; kind: 'limits'; processes: number; fileSize: number; root: boolean };

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
  const { existsSync, lstatSync, unlinkSync } = requireBuiltin('node:fs') as typeof import('node:fs');
  const net = requireBuiltin('node:net') as typeof import('node:net');
  const { spawn } = requireBuiltin('node:child_process') as typeof import('node:child_process');
  const { mkdtemp, rm } = requireBuiltin('node:fs/promises') as typeof import('node:fs/promises');
  const { tmpdir } = requireBuiltin('node:os') as typeof import('node:os');
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
  // The `.git` promise (docs/security.md, "The user's own git stays theirs"); `create` is judged
  // outside, after the command: what a command makes in `.git` must not reach the user's git.
  const git = join(options.workspace, '.git');
  const gitKind = existsSync(git) ? (lstatSync(git).isDirectory() ? 'folder' : 'file') : 'none';
  if (gitKind === 'none') add('.git (git init here)', 'refused', { id: 'g0', kind: 'create', path: join(git, 'HEAD') });
  if (gitKind === 'file') add('.git (a gitdir file)', 'read-only', { id: 'g1', kind: 'write', path: git });
  const parts = gitKind === 'folder' ? (['config', 'hooks', 'info', 'objects', 'refs'] as const) : [];
  for (const name of parts.filter((part) => existsSync(join(git, part))))
    add(`.git/${name}`, name === 'objects' || name === 'refs' ? 'writable' : 'read-only', {
      id: `g-${name}`,
      kind: 'write',
      path: join(git, name),
    });
  if (gitKind === 'folder')
    add('.git/commondir (new)', 'refused', { id: 'g2', kind: 'create', path: join(git, 'commondir') });
  if (gitKind !== 'none') add('.git (rename)', 'refused', { id: 'g3', kind: 'rename', path: git });

  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  add('network (a loopback port of this machine)', sandbox.network === 'on' ? 'writable' : 'refused', {
    id: 'net',
    kind: 'connect',
    port,
  });
  add("a credential in cw's environment", 'hidden', { id: 'credential', kind: 'credential', name: PLANTED_CREDENTIAL });
  // A Unix socket this process listens on, named by every socket variable the probe is given.
  const socketFolder = await mkdtemp(`${tmpdir()}/cw-check-`);
  const socketPath = `${socketFolder}/host.sock`;
  const unixServer = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => unixServer.listen(socketPath, resolve));
  for (const row of hardeningRows(sandbox, socketPath)) rows.push({ ...row, check: row.check as Check });
  const spec = JSON.stringify(rows.flatMap((row) => (row.check === null ? [] : [row.check])));
  // The policy first, as for a command; the socket variables after it, since the sandbox must drop them itself.
  const policyEnv = toolEnvironment({ ...options.env, [PLANTED_CREDENTIAL]: 'planted' }, [], options.config);
  const wrapped = await sandbox.wrap([process.execPath, '-e', PROBE_SOURCE, spec], {
    cwd: options.workspace,
    env: plantedSocketVariables(policyEnv, socketPath),
  });
  let found: Record<string, unknown> = {};
  try {
    const stdout = await new Promise<string>((resolve) => {
      let out = '';
      const child = spawn(wrapped.file, [...wrapped.args], {
        env: wrapped.env,
        timeout: 20_000,
        stdio: ['ignore', 'pipe', 'ignore', ...wrapped.stdio],
      });
      wrapped.attach(child);
      child.stdout?.on('data', (chunk: Buffer) => {
        out += String(chunk);
      });
      child.on('close', () => resolve(out));
      child.on('error', () => resolve(out));
    });
    try {
      found = JSON.parse(stdout) as Record<string, unknown>;
    } catch {
      // The probe did not answer: every row says `error`.
    }
  } finally {
    server.close();
    unixServer.close();
    await rm(socketFolder, { recursive: true, force: true });
    await wrapped.release();
  }
  for (const { check } of rows) {
    if (check?.kind !== 'create' || found[check.id] !== 'writable') continue;
    // Made inside but kept from the user's git, or there: then the probe's own empty file goes again.
    if (existsSync(check.path)) unlinkSync(check.path);
    else found[check.id] = 'refused';
  }
  // Checked from outside: where the program that confines everything else was found (docs/security.md).
  const program: SandboxCheckRow = trustedProgramFile(sandbox.file, { workspace: options.workspace })
    ? { what: 'sandbox program (a trusted system folder)', expected: 'trusted', found: 'trusted', ok: true }
    : { what: 'sandbox program (a trusted system folder)', expected: 'trusted', found: 'untrusted', ok: false };
  const probed = rows.map((row) => {
    const result = (row.check === null ? 'absent' : (found[row.check.id] ?? 'error')) as SandboxCheckRow['found'];
    const ok =
      result === 'absent' ||
      result === row.expected ||
      (row.expected === 'writable' && row.check?.kind === 'connect' && result === 'connected');
    const what = row.check?.kind === 'caps' ? capabilitiesLabel(found['uid']) : row.what;
    return { what, expected: row.expected, found: result, ok };
  });
  return [program, ...probed];
}
