// `cw chat` shows a third-party plugin's own notice and gate reason in its registered words: the
// fixture test/fixtures/turn-plugins/quota-gate (docs/plugin-authors.md, "Notices and gate reasons")
// is installed like any plugin, and tmux runs the BUILT CLI (`npm run build` first) against a
// scripted local model while the test types and reads the screen.
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { installQuotaGate, QUOTA_SPENT, readQuota } from './support/quota-gate-plugin.js';
import { useScriptedModels } from './support/scripted-model.js';
import { hasTmux, TmuxSession } from './support/tmux-session.js';

const models = useScriptedModels('CW_CHAT_QUOTA_KEY', FAKE_KEY);

let term: TmuxSession | undefined;

afterEach(() => {
  term?.close();
  term = undefined;
});

describe.skipIf(!hasTmux)("cw chat and a plugin's own notice kind and gate reason", () => {
  it('prints the notice in its words, then stops the next prompt with the plugin reason and detail', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'FIRST answer from the model' } });
    const ws = await models.folder('cw-chat-quota-ws-');
    const home = await models.home(model, { workspace: ws });
    const env = models.envFor(home);
    await installQuotaGate(env['CW_DATA_DIR'] ?? '', home, { limit: 1, used: 0 });
    term = TmuxSession.start(await models.folder('cw-chat-quota-tmux-'), { env, cwd: ws });

    await term.waitForScreen('› ', 'the prompt');
    term.type('hi');
    await term.waitForScreen('cw: quota: turn 1 of 1', 'the plugin notice');
    await term.waitForScreen('FIRST answer from the model', 'the reply');
    await term.waitForScreen('tokens: ', 'the usage line, once the turn is saved');
    expect(await readQuota(home)).toEqual({ limit: 1, used: 1 });

    term.type('again');
    await term.waitForScreen(`cw: this turn cannot be sent: ${QUOTA_SPENT}`, 'the plugin reason');
    expect(term.screen().replace(/\s+/g, ' ')).toContain(
      `${QUOTA_SPENT} (1 of 1 turns used): raise limit in quota-gate.json; the request was not sent`,
    );
    expect(model.requests).toHaveLength(1);
    expect(term.paneDead()).toBe(false);
  });
});
