// `cw chat` and `cw` alone on a terminal start without oclif (cli/src/entry/fast-chat.ts), from a
// bundle of their own (cli/src/entry/load-chat-bundle.ts); the session itself is the one
// test/chat-session.test.ts drives, which now runs this way. Here: the entry loads no oclif and no
// built-in plugin file, the oclif way still works, what the entry declines still reaches oclif, a line
// typed before the prompt shows is sent once the session is ready, and a chat that cannot open says
// why as the oclif way does, with the same exit code.
import { writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CW_BIN, FAKE_KEY, REPO_ROOT } from './support/cw-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';
import { waitFor } from './support/spawn-cw.js';
import { hasTmux, TmuxSession } from './support/tmux-session.js';

const HOOK = join(REPO_ROOT, 'test', 'fixtures', 'report-oclif-imports.mjs');
const PLUGIN_HOOK = join(REPO_ROOT, 'test', 'fixtures', 'report-plugin-imports.mjs');
const models = useScriptedModels('CW_FAST_CHAT_KEY', FAKE_KEY);
let term: TmuxSession | undefined;

afterEach(() => {
  term?.close();
  term = undefined;
});

/** Opens `cw <args>` in a pane with the oclif-reporting hook; the screen once the prompt shows, or cw left. */
async function screenOf(args: readonly string[], extra: Record<string, string> = {}): Promise<string> {
  const model = await models.model('chat-completions');
  const env = models.envFor(await models.home(model), { NODE_OPTIONS: `--import=${HOOK}`, ...extra });
  const session = TmuxSession.start(await models.folder('cw-fast-chat-tmux-'), {
    env,
    cwd: await models.folder('cw-fast-chat-ws-'),
    args,
  });
  term = session;
  await waitFor(
    () => session.screen().includes('› ') || session.paneDead(),
    15_000,
    `cw ${args.join(' ')} to be ready`,
  );
  return session.screen();
}

describe.skipIf(!hasTmux)('cw chat without oclif', () => {
  it('shows the prompt, for `cw` and `cw chat` with flags, having loaded no oclif', async () => {
    for (const args of [[], ['chat', '-n', '--approval', 'read-only']]) {
      const screen = await screenOf(args);
      expect(screen).toContain('/help for commands');
      expect(screen).not.toContain('oclif-loaded');
      term?.close();
    }
  });

  it('the oclif way (CW_NO_FAST_PATH) shows the same session, and loads oclif', async () => {
    const screen = await screenOf(['chat', '-n', '--approval', 'read-only'], { CW_NO_FAST_PATH: '1' });
    expect(screen).toContain('cw · session s1 · approval read-only');
    expect(screen).toContain('oclif-loaded');
  });

  it('leaves help and a misspelt flag to oclif, whose words the command uses', async () => {
    const help = await screenOf(['chat', '--help']);
    expect(help).toContain('Talk with the agent');
    expect(help).toContain('oclif-loaded');
    term?.close();
    const wrong = await screenOf(['chat', '--aproval', 'ask']);
    expect(wrong).toContain('oclif-loaded');
    expect(wrong).toMatch(/cw: .*--aproval/);
  });

  it('takes the built-in plugins from its bundle: no plugin file is imported, as the oclif way imports them', async () => {
    const hooks = { NODE_OPTIONS: `--import=${HOOK} --import=${PLUGIN_HOOK}` };
    const fast = await screenOf(['chat', '-n'], hooks);
    expect(fast).toContain('cw · session s1 · approval');
    expect(fast).not.toContain('plugin-imported');
    term?.close();
    const oclif = await screenOf(['chat', '-n'], { ...hooks, CW_NO_FAST_PATH: '1' });
    expect(oclif).toContain('plugin-imported');
  });

  it('sends a line typed before the prompt showed once the session is ready, as if typed at the prompt', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'EARLY reply.' } });
    const session = TmuxSession.start(await models.folder('cw-fast-chat-tmux-'), {
      env: models.envFor(await models.home(model)),
      cwd: await models.folder('cw-fast-chat-ws-'),
      args: [],
    });
    term = session;
    // Typed at once: cw is still starting, and the terminal holds the keys until it reads them.
    session.type('EARLY line');
    await session.waitForScreen('EARLY reply.', 'the reply to the line typed early');
    await waitFor(() => session.screen().includes('tokens: '), 10_000, 'the usage line');
    expect(session.screen()).toContain('› EARLY line');
    expect(model.requests).toHaveLength(1);
    expect(JSON.stringify(model.requests[0]?.view)).toContain('EARLY line');
    session.keys('C-d');
    await waitFor(() => session.paneDead(), 10_000, 'cw to leave');
    expect(session.exitStatus()).toBe(0);
  });
});

// util-linux `script` gives cw a terminal and hands back its exit code, which tmux cannot be relied
// on to report for a process that leaves as soon as it starts.
const hasScript = spawnSync('script', ['-V'], { encoding: 'utf8' }).stdout?.includes('util-linux') === true;

/** Runs `cw <args>` on a terminal of its own until it leaves: what it printed and its exit code. */
function leftWith(
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
): { printed: string; code: number | null } {
  const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
  const line = [process.execPath, CW_BIN, ...args].map(quote).join(' ');
  const run = spawnSync('script', ['-qec', line, '/dev/null'], {
    cwd,
    env: { ...process.env, ...env, TERM: 'xterm-256color', NO_COLOR: '1' },
    encoding: 'utf8',
    input: '',
    timeout: 30_000,
  });
  return { printed: run.stdout.replaceAll('\r\n', '\n').trim(), code: run.status };
}

describe.skipIf(!hasScript)('cw chat that cannot open', () => {
  it('says what is wrong with the config or the session as the oclif way does, with the same exit code', async () => {
    const model = await models.model('chat-completions');
    const badJson = await models.home(model);
    await writeFile(join(badJson, 'config.json'), '{"route": 5,');
    const badValue = await models.home(model);
    await writeFile(join(badValue, 'config.json'), '{"approval": "sometimes"}');
    const cases = [
      { home: badJson, args: ['chat'], code: 1 },
      { home: badValue, args: [], code: 1 },
      { home: await models.home(model), args: ['chat', '-r', 'nosuch'], code: 2 },
    ];
    for (const { home, args, code } of cases) {
      const cwd = await models.folder('cw-fast-chat-ws-');
      const fast = leftWith(args, models.envFor(home), cwd);
      const oclif = leftWith(args, models.envFor(home, { CW_NO_FAST_PATH: '1' }), cwd);
      expect(fast.printed).toMatch(/^cw: /);
      expect(fast.printed).not.toContain('› ');
      expect(fast).toEqual({ ...oclif, code });
    }
  });
});
