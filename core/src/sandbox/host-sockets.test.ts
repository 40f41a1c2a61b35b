// The sandbox boundary itself removes the session's socket variables and hides its socket folders,
// whatever environment a caller hands `wrap()` (docs/security.md, "Root, host sockets and limits").
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCommandSandbox } from './command-sandbox.js';
import { HOST_SOCKET_VARIABLES } from './host-sockets.js';
import { DEFAULT_SANDBOX_CONFIG } from './sandbox-config.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function sandboxFor(runtime: string) {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'cw-host-sockets-')));
  const saved = process.env['XDG_RUNTIME_DIR'];
  process.env['XDG_RUNTIME_DIR'] = runtime;
  cleanups.push(async () => {
    if (saved === undefined) delete process.env['XDG_RUNTIME_DIR'];
    else process.env['XDG_RUNTIME_DIR'] = saved;
    await rm(base, { recursive: true, force: true });
  });
  const sandbox = await openCommandSandbox({
    // wrap() spawns nothing: the program need not be run to see what it would be given.
    program: { kind: 'bubblewrap', file: '/usr/bin/bwrap' },
    config: { ...DEFAULT_SANDBOX_CONFIG, limits: { processes: 99, file_size_mb: 5 } },
    workspace: base,
    home: join(base, 'home'),
    cwHome: join(base, 'cw-home'),
  });
  return { sandbox, base };
}

describe('wrap() at the sandbox boundary', () => {
  it('drops every socket variable it is given and keeps the rest', async () => {
    const runtime = await realpath(await mkdtemp(join(tmpdir(), 'cw-runtime-')));
    cleanups.push(() => rm(runtime, { recursive: true, force: true }));
    const { sandbox, base } = await sandboxFor(runtime);
    const given = Object.fromEntries(HOST_SOCKET_VARIABLES.map((name) => [name, '/somewhere/sock']));
    const wrapped = await sandbox.wrap(['/bin/true'], {
      cwd: base,
      env: { ...given, KEEP_ME: 'yes', PATH: '/usr/bin' },
    });
    try {
      for (const name of [
        'SSH_AUTH_SOCK',
        'TMUX',
        'TMUX_PANE',
        'DBUS_SESSION_BUS_ADDRESS',
        'DISPLAY',
        'WAYLAND_DISPLAY',
      ])
        expect(wrapped.env, name).not.toHaveProperty(name);
      expect(wrapped.env).not.toHaveProperty('XDG_RUNTIME_DIR');
      expect(wrapped.env['KEEP_ME']).toBe('yes');
      // The runtime folder is hidden, the limits are set before the command, the filter rides on fd 3.
      expect(sandbox.hidden.map((entry) => entry.label)).toContain('runtime folder');
      expect(wrapped.args.join(' ')).toContain(`--tmpfs ${runtime}`);
      expect(wrapped.args.join(' ')).toContain(
        `--nproc=99:99 --fsize=${5 * 1024 * 1024}:${5 * 1024 * 1024} -- /bin/true`,
      );
      expect(wrapped.stdio).toHaveLength(1);
      expect(typeof wrapped.stdio[0]).toBe('number');
    } finally {
      await wrapped.release();
      await sandbox.close();
    }
  });

  it('leaves the runtime folder visible when the workspace is inside it, so the workspace stays usable', async () => {
    const runtime = await realpath(await mkdtemp(join(tmpdir(), 'cw-runtime-')));
    cleanups.push(() => rm(runtime, { recursive: true, force: true }));
    await mkdir(join(runtime, 'ws'));
    const saved = process.env['XDG_RUNTIME_DIR'];
    process.env['XDG_RUNTIME_DIR'] = runtime;
    try {
      const sandbox = await openCommandSandbox({
        program: { kind: 'bubblewrap', file: '/usr/bin/bwrap' },
        config: DEFAULT_SANDBOX_CONFIG,
        workspace: join(runtime, 'ws'),
        home: join(runtime, 'home'),
        cwHome: join(runtime, 'cw-home'),
      });
      expect(sandbox.hidden.map((entry) => entry.path)).not.toContain(runtime);
      await sandbox.close();
    } finally {
      if (saved === undefined) delete process.env['XDG_RUNTIME_DIR'];
      else process.env['XDG_RUNTIME_DIR'] = saved;
    }
  });
});
