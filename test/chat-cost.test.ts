// The cost in `cw chat`'s usage line, in a real pseudo-terminal: tmux runs the built CLI on the
// built-in `anthropic` route, whose requests go to a scripted local model through the test origin
// with a fake key. Request N reports 100+N input and 7 output tokens; claude-sonnet-4-6 costs $3 in
// and $15 out per million, so the first turn costs 405 µ$ and the second 408 µ$.
import { afterEach, describe, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';
import { hasTmux, TmuxSession } from './support/tmux-session.js';

const models = useScriptedModels('CW_CHAT_COST_KEY', FAKE_KEY);

let term: TmuxSession | undefined;

afterEach(() => {
  term?.close();
  term = undefined;
});

describe.skipIf(!hasTmux)('cw chat: the usage line says what a turn cost', () => {
  it('shows each turn cost and the session total, from the route price', async () => {
    const model = await models.model(
      'anthropic-messages',
      { reply: { text: 'First answer.' } },
      { reply: { text: 'Second answer.' } },
    );
    const ws = await models.folder('cw-chat-cost-ws-');
    const home = await models.home(model, { route: 'anthropic', workspace: ws, approval: 'read-only' });
    const env = models.envFor(home, {
      CW_TEST_ORIGIN: model.origin,
      CW_TEST_MODE: 'loopback-fake-keys',
      ANTHROPIC_API_KEY: FAKE_KEY,
    });
    term = TmuxSession.start(await models.folder('cw-chat-cost-tmux-'), { env, cwd: ws, args: [] });
    const session = term;

    await session.waitForScreen('› ', 'the prompt');
    session.type('hello');
    await session.waitForScreen('First answer.', 'the first reply');
    // 405 µ$ shows as $0.0004, the session the same after one turn.
    await session.waitForScreen('cost $0.0004 · session $0.0004', 'the first usage line with its cost');

    session.type('again');
    await session.waitForScreen('Second answer.', 'the second reply');
    // 408 µ$ is $0.0004 again; the session holds 813 µ$, $0.0008.
    await session.waitForScreen('cost $0.0004 · session $0.0008', 'the second usage line with the session total');
  });
});
