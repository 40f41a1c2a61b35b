// What cw says when its own state is damaged (docs/cli.md, "Sessions"): one line that says what is
// wrong and what to do, a non-zero exit where it cannot go on, no absolute path, no Node warning.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY, REPO_ROOT, sessionsFolder } from './support/cw-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_STATE_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

/** No absolute path of this machine and no Node warning text in what cw printed. */
function expectClean(printed: string, ...paths: string[]): void {
  for (const path of paths) expect(printed).not.toContain(path);
  expect(printed).not.toMatch(/\(node:\d+\)|--trace-warnings/);
}

describe('a folder where a session file should be', () => {
  it('cw sessions lists it as unreadable, and cw send says so once, moves it aside and goes on', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'fresh start' } });
    const home = await models.home(model);
    const folder = await sessionsFolder(home);
    await mkdir(join(folder, 'default.json'), { recursive: true });

    const listed = await runCwChild(['sessions'], models.envFor(home));
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/default\s+\S+\s+unreadable/);

    const sent = await runCwChild(['send', '--prompt', 'hello'], models.envFor(home));
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toContain('fresh start');
    const lines = sent.stderr.split('\n').filter((line) => line.includes('not readable; moved it aside'));
    expect(lines, sent.stderr).toHaveLength(1);
    expect(sent.stderr).not.toContain('EISDIR');
    expectClean(sent.stdout + sent.stderr + listed.stdout + listed.stderr, home, REPO_ROOT);
    // The folder was kept aside, and the session is a file again.
    const entries = await readdir(folder);
    expect(entries.some((entry) => entry.startsWith('default.json.corrupt-'))).toBe(true);
    expect((await stat(join(folder, 'default.json'))).isFile()).toBe(true);
  });
});

describe('a plugin data folder cw cannot read', () => {
  // Root reads every folder; as root the check runs as nobody, when the checkout is readable to it.
  const asRoot = process.getuid?.() === 0;
  const readableToAll = (() => {
    try {
      execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'test', '-r', REPO_ROOT]);
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(asRoot && !readableToAll)('one line, exit 1, no path and no Node warning', async () => {
    const model = await models.model('chat-completions');
    const home = await models.home(model);
    const data = await models.folder('cw-unreadable-');
    await writeFile(join(data, 'package.json'), '{"oclif":{"plugins":[]}}');
    await chmod(data, 0o000);
    await chmod(home, 0o777);
    const env = models.envFor(home, { CW_DATA_DIR: data, HOME: home });
    try {
      const run = asRoot ? await unprivileged(['sessions'], env) : await runCwChild(['sessions'], env);
      expect(run.code).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^cw: the plugin data folder .* cannot be read \(EACCES\); .*CW_DATA_DIR/);
      expectClean(run.stdout + run.stderr, data, home);
    } finally {
      await chmod(data, 0o700);
    }
  });
});

/** Runs the built CLI as nobody (the test runs as root, whom no permission stops). */
async function unprivileged(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { spawnSync } = await import('node:child_process');
  const { cwEnv } = await import('./support/spawn-cw.js');
  const { CW_BIN } = await import('./support/cw-fixture.js');
  const run = spawnSync(
    'setpriv',
    ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CW_BIN, ...args],
    { env: cwEnv(env), cwd: '/', encoding: 'utf8' },
  );
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
