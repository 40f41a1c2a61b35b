// What `cw send` prints of a Markdown reply (docs/cli.md, "What a terminal shows"): off a terminal,
// under NO_COLOR and in the JSON formats, the reply exactly as the model wrote it (terminal controls
// removed), with the Markdown libraries never loaded; on a colour terminal, rendered.
import { terminalSafeMultiline } from '@cw/core';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEY, REPO_ROOT } from './support/cw-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild, waitFor } from './support/spawn-cw.js';
import { hasTmux, TmuxSession } from './support/tmux-session.js';

const models = useScriptedModels('CW_SEND_MD_KEY', FAKE_KEY);
const HOOK = join(REPO_ROOT, 'test', 'fixtures', 'report-markdown-imports.mjs');
const IMPORTED = 'markdown-imported: ';
const REPLY =
  '# Result\n\nThe **tests** pass:\n\n| suite | ok |\n|---|---|\n| unit | yes |\n\n```js\nconst done = true;\n```\n\nA \u001b[31mred\u001b[0m word.';

let term: TmuxSession | undefined;
afterEach(() => {
  term?.close();
  term = undefined;
});

describe('cw send off a terminal', () => {
  it('prints the Markdown byte for byte as the model wrote it, and never loads the renderer', async () => {
    const model = await models.model('chat-completions', { reply: { text: REPLY } }, { reply: { text: REPLY } });
    const home = await models.home(model);
    const env = models.envFor(home, { NODE_OPTIONS: `--import=${HOOK}` });
    const sent = await runCwChild(['send', '--prompt', 'report'], env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toBe(`${terminalSafeMultiline(REPLY)}\n`);
    expect(sent.stdout).toContain('**tests**');
    expect(sent.stderr).not.toContain(IMPORTED);
    const json = await runCwChild(['send', '--json', '--prompt', 'again'], env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ reply: { text: REPLY } });
    expect(json.stderr).not.toContain(IMPORTED);
    const preview = await runCwChild(['preview-request', 'json', '--prompt', 'hi'], env);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stderr).not.toContain(IMPORTED);
  });
});

describe.skipIf(!hasTmux)('cw send on a terminal', () => {
  /** Runs `cw send --prompt report` in a pane; returns the screen once cw has left. */
  async function sendInPane(color: boolean): Promise<{ screen: string; escapes: string }> {
    const model = await models.model('chat-completions', { reply: { text: REPLY } });
    const home = await models.home(model);
    term = TmuxSession.start(await models.folder('cw-send-md-tmux-'), {
      env: models.envFor(home, { NODE_OPTIONS: `--import=${HOOK}` }),
      cwd: home,
      args: ['send', '--prompt', 'report'],
      color,
    });
    const pane = term;
    await waitFor(() => pane.paneDead(), 20_000, `cw send to finish:\n${pane.screen()}`);
    expect(pane.exitStatus()).toBe(0);
    return { screen: pane.screen(), escapes: pane.screen({ escapes: true }) };
  }

  it('renders the reply with colour: no Markdown marks, a highlighted fence, an aligned table', async () => {
    const { screen, escapes } = await sendInPane(true);
    expect(screen).toContain('The tests pass:');
    expect(screen).not.toContain('**');
    expect(screen).not.toContain('```');
    expect(screen).toMatch(/suite │ ok\n─+┼─+\nunit +│ yes/);
    expect(screen).toContain('A red word.');
    expect(escapes).toMatch(/\u001b\[[0-9;]*35m(?:\u001b\[[0-9;]*m)*const/);
    // The renderer was loaded for this run (the hook that says so works).
    expect(screen).toContain(IMPORTED);
  }, 30_000);

  it('prints the reply as written under NO_COLOR, without loading the renderer', async () => {
    const { screen } = await sendInPane(false);
    expect(screen).toContain('The **tests** pass:');
    expect(screen).toContain('```js');
    expect(screen).not.toContain(IMPORTED);
  }, 30_000);
});
