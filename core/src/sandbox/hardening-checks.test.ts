// The hardening rows of `cw sandbox check` (docs/security.md): green inside the real sandbox, red when
// the same probe runs with nothing around it, so the check cannot pass by not looking.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSandbox } from './check-sandbox.js';
import { type CommandSandbox, openCommandSandbox } from './command-sandbox.js';
import { findSandboxProgram } from './find-sandbox.js';
import { DEFAULT_SANDBOX_CONFIG } from './sandbox-config.js';
import { needBubblewrap } from '../../../test/support/require-bubblewrap.js';

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function machine(): Promise<{ workspace: string; home: string; cwHome: string }> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'cw-hardening-check-')));
  folders.push(base);
  return { workspace: base, home: join(base, 'no-home'), cwHome: join(base, 'no-cw-home') };
}

const HARDENING = /^(capabilities|socket variables|mount|a Unix socket|limits)/;
const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', SSH_AUTH_SOCK: '/nowhere' };

describe('checkSandbox, the hardening rows', () => {
  it('inside bubblewrap: no capability, mount and a Unix socket refused, socket variables unset, limits in force', async (context) => {
    needBubblewrap(context);
    const program = findSandboxProgram(process.env, 'linux');
    const where = await machine();
    const config = { ...DEFAULT_SANDBOX_CONFIG, limits: { processes: 77, file_size_mb: 3 } };
    const sandbox = await openCommandSandbox({ program: program as NonNullable<typeof program>, config, ...where });
    try {
      const rows = await checkSandbox(sandbox, { ...where, denyRead: [], env, config: { routes: {} } });
      const hardening = rows.filter((row) => HARDENING.test(row.what));
      expect(hardening.map((row) => [row.what.split(' (')[0], row.found])).toEqual([
        ['capabilities', 'none'],
        ['socket variables', 'unset'],
        ['mount', 'refused'],
        ['a Unix socket of this machine', 'refused'],
        ['limits', 'in force'],
      ]);
      expect(hardening.every((row) => row.ok)).toBe(true);
      expect(hardening[0]?.what).toBe(`capabilities (uid ${process.getuid?.()} inside, ${process.getuid?.()} outside)`);
      expect(hardening[4]?.what).toBe('limits (77 processes, 3 MiB a file)');
    } finally {
      await sandbox.close();
    }
  });

  it('run unconfined, the same probe finds the socket reachable, the variables set and no limits: those rows fail', async () => {
    const where = await machine();
    const unconfined: CommandSandbox = {
      kind: 'bubblewrap',
      file: '/usr/bin/bwrap',
      network: 'on',
      hidden: [],
      readOnly: [],
      limits: { processes: 77, file_size_mb: 3 },
      async wrap(argv, options) {
        // A temp folder that does not exist, so the probe's mount cannot touch this machine.
        const envWithTemp = { ...options.env, TMPDIR: join(where.workspace, 'missing') };
        return {
          file: argv[0] as string,
          args: argv.slice(1),
          env: envWithTemp,
          stdio: [],
          attach: () => {},
          release: async () => {},
        };
      },
      reason: () => '',
      close: async () => {},
    };
    const rows = await checkSandbox(unconfined, { ...where, denyRead: [], env, config: { routes: {} } });
    const found = Object.fromEntries(rows.map((row) => [row.what.split(' (')[0], row]));
    expect(found['socket variables']).toMatchObject({ found: 'set', ok: false });
    expect(found['a Unix socket of this machine']).toMatchObject({ found: 'connected', ok: false });
    expect(found['limits']).toMatchObject({ found: 'missing', ok: false });
    if (process.getuid?.() === 0) expect(found['capabilities']).toMatchObject({ found: 'some', ok: false });
  });
});
