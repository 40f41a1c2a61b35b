// Starting the interactive session the usual way, in a real pseudo-terminal: tmux runs the built
// CLI (run `npm run build` first) against a scripted local model. `cw "…"` opens the session with
// that first prompt sent; `cw -c` continues the latest session and shows its last exchanges; `cw -r`
// shows a picker of the workspace's sessions (name, age, first prompt, route).
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild, sessionMessages, waitFor } from './support/spawn-cw.js';
import { hasTmux, TmuxSession } from './support/tmux-session.js';

const models = useScriptedModels('CW_CHAT_START_KEY', FAKE_KEY);

let term: TmuxSession | undefined;

afterEach(() => {
  term?.close();
  term = undefined;
});

function current(): TmuxSession {
  if (term === undefined) throw new Error('no tmux session started');
  return term;
}

/** A workspace and a home on `model` whose workspace it is; the env for cw there. */
async function workspaceOn(
  model: Parameters<typeof models.home>[0],
): Promise<{ ws: string; env: Record<string, string> }> {
  const ws = await models.folder('cw-start-ws-');
  const home = await models.home(model, { workspace: ws, approval: 'never', context: { turn_context: false } });
  return { ws, env: models.envFor(home) };
}

/** One headless turn in `ws`, to give the session something to resume. */
async function turn(env: Record<string, string>, ws: string, ...args: string[]): Promise<void> {
  const run = await runCwChild(['-p', ...args], env, { cwd: ws });
  expect(run.code, run.stderr).toBe(0);
}

describe.skipIf(!hasTmux)('starting the session the usual way', () => {
  it('cw "…" opens the session with that first prompt sent', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'FIRST reply, streamed.' } });
    const { ws, env } = await workspaceOn(model);
    term = TmuxSession.start(await models.folder('cw-start-tmux-'), { env, cwd: ws, args: ['explain this repo'] });
    await current().waitForScreen('/help for commands', 'the banner');
    await current().waitForScreen('FIRST reply, streamed.', 'the reply to the first prompt');
    expect(current().screen()).toContain('› explain this repo');
    await waitFor(() => current().count('› ') >= 2, 10_000, 'the prompt after the first turn');
    expect(model.requests).toHaveLength(1);
    expect(JSON.stringify(model.requests[0]?.view)).toContain('explain this repo');
    current().keys('C-d');
    await waitFor(() => current().paneDead(), 10_000, 'cw to leave');
  });

  it('cw -c continues the latest session and shows its last exchanges before the prompt', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { text: 'ANSWER one' } },
      { reply: { text: 'ANSWER two\nsecond line' } },
      { reply: { text: 'ANSWER three' } },
    );
    const { ws, env } = await workspaceOn(model);
    await turn(env, ws, 'QUESTION one');
    await turn(env, ws, '-c', 'QUESTION two');
    term = TmuxSession.start(await models.folder('cw-start-tmux-'), { env, cwd: ws, args: ['-c'] });
    await current().waitForScreen('/help for commands', 'the banner');
    await current().waitForScreen('the last 2 exchanges of 2', 'the exchanges header');
    const shown = current().screen();
    for (const text of ['› QUESTION one', 'ANSWER one', '› QUESTION two', 'ANSWER two', 'second line'])
      expect(shown).toContain(text);
    expect(shown.indexOf('QUESTION one')).toBeLessThan(shown.indexOf('QUESTION two'));
    current().type('QUESTION three');
    await current().waitForScreen('ANSWER three', 'the reply in the continued session');
    current().keys('C-d');
    await waitFor(() => current().paneDead(), 10_000, 'cw to leave');
    expect(model.requests).toHaveLength(3);
    // The third request carried the whole conversation: it continued the session.
    expect(JSON.stringify(model.requests[2]?.view)).toContain('QUESTION one');
  });

  it('cw -r shows a picker: arrow keys and Enter open a session, Esc leaves without opening one', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { text: 'alpha answer' } },
      { reply: { text: 'beta answer' } },
    );
    const { ws, env } = await workspaceOn(model);
    await turn(env, ws, '-s', 'alpha', 'the ALPHA task');
    await turn(env, ws, '-s', 'beta', 'the BETA task');

    term = TmuxSession.start(await models.folder('cw-start-tmux-'), { env, cwd: ws, args: ['-r'] });
    await current().waitForScreen('Resume which session?', 'the picker');
    const listed = current().screen();
    expect(listed).toMatch(/› 1 {2}beta +\d+m ago +fault +the BETA task/);
    expect(listed).toMatch(/ {2}2 {2}alpha +\d+m ago +fault +the ALPHA task/);
    current().keys('Down');
    await current().waitForScreen('› 2  alpha', 'the second row chosen');
    current().keys('Enter');
    await current().waitForScreen('session alpha', 'the banner of the picked session');
    await current().waitForScreen('› the ALPHA task', 'its last exchange');
    current().keys('C-d');
    await waitFor(() => current().paneDead(), 10_000, 'cw to leave');
    current().close();

    term = TmuxSession.start(await models.folder('cw-start-tmux-'), { env, cwd: ws, args: ['chat', '-r'] });
    await current().waitForScreen('Resume which session?', 'the picker under cw chat');
    current().keys('Escape');
    await waitFor(() => current().paneDead(), 10_000, 'cw to leave after Esc');
    expect(current().screen()).not.toContain('/help for commands');
    // Nothing was sent or written by looking.
    expect(model.requests).toHaveLength(2);
    expect(await sessionMessages(env['CW_HOME'] ?? '', 'alpha')).toHaveLength(2);
  });
});
