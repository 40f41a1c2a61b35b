// `cw chat` and `cw` alone on a terminal start without oclif (cli/src/entry/fast-chat.ts); the
// session itself is the one test/chat-session.test.ts drives, which now runs this way. Here: the
// entry loads no oclif, the oclif way still works, and what the entry declines still reaches oclif.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEY, REPO_ROOT } from './support/cw-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';
import { waitFor } from './support/spawn-cw.js';
import { hasTmux, TmuxSession } from './support/tmux-session.js';

const HOOK = join(REPO_ROOT, 'test', 'fixtures', 'report-oclif-imports.mjs');
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
});
