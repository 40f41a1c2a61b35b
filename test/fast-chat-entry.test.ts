// `cw chat` and `cw` alone on a terminal start without oclif (cli/src/entry/fast-chat.ts), from a
// bundle of their own (cli/src/entry/load-chat-bundle.ts); the session itself is the one
// test/chat-session.test.ts drives, which now runs this way. Here: the entry loads no oclif and no
// built-in plugin file, the oclif way still works, what the entry declines still reaches oclif, and a
// line typed before the prompt shows is sent once the session is ready.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEY, REPO_ROOT } from './support/cw-fixture.js';
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

  it('says what is wrong with the config or the session as the oclif way does, with the same exit code', async () => {
    const model = await models.model('chat-completions');
    const badJson = await models.home(model);
    await writeFile(join(badJson, 'config.json'), '{"route": 5,');
    const badValue = await models.home(model);
    await writeFile(join(badValue, 'config.json'), '{"approval": "sometimes"}');
    const cases = [
      { home: badJson, args: ['chat'], code: 1 },
      { home: badValue, args: ['chat'], code: 1 },
      { home: await models.home(model), args: ['chat', '-r', 'nosuch'], code: 2 },
    ];
    for (const { home, args, code } of cases) {
      const seen: { screen: string; code: number }[] = [];
      const ways: Record<string, string>[] = [{}, { CW_NO_FAST_PATH: '1' }];
      for (const extra of ways) {
        const session = TmuxSession.start(await models.folder('cw-fast-chat-tmux-'), {
          env: models.envFor(home, extra),
          cwd: await models.folder('cw-fast-chat-ws-'),
          args,
        });
        term = session;
        await waitFor(() => session.paneDead(), 15_000, `cw ${args.join(' ')} to leave`);
        // What cw printed, without the line tmux adds when the pane's program has left.
        const printed = session
          .screen()
          .split('\n')
          .filter((line) => !line.startsWith('Pane is dead'))
          .join('\n')
          .trim();
        seen.push({ screen: printed, code: session.exitStatus() });
        session.close();
      }
      expect(seen[0]?.screen).toMatch(/^cw: /);
      expect(seen[0]?.screen).not.toContain('› ');
      expect(seen[0]).toEqual({ ...seen[1], code });
    }
  });
});
