// What a colour terminal shows of a reply in `cw chat` (docs/cli.md, "What a terminal shows"):
// Markdown rendered block by block, fenced code highlighted, a tool's long output folded, and lines
// typed while a reply or /compact runs queued on lines of their own, then sent in order. tmux runs
// the built CLI against a scripted local model; the test types keys and reads the screen.
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { type ScriptedCall, useScriptedModels } from './support/scripted-model.js';
import { waitFor } from './support/spawn-cw.js';
import { hasTmux, TmuxSession } from './support/tmux-session.js';

const models = useScriptedModels('CW_CHAT_KEY', FAKE_KEY);
const shell = (id: string, command: string): ScriptedCall => ({
  id,
  name: 'shell',
  arguments: JSON.stringify({ command }),
});

let term: TmuxSession | undefined;

afterEach(() => {
  term?.close();
  term = undefined;
});

function current(): TmuxSession {
  if (term === undefined) throw new Error('no tmux session started');
  return term;
}

const waitForScreen = (text: string, what = text, timeoutMs = 10_000): Promise<void> =>
  current().waitForScreen(text, what, timeoutMs);

/** A gate the test opens: the scripted model holds a reply until then. */
function gate(): { readonly promise: Promise<void>; readonly open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** The last user message of request `index` of a chat-completions model. */
function lastUserText(model: { requests: { view: { raw: string } }[] }, index: number): string {
  const body = JSON.parse(model.requests[index]?.view.raw ?? '{}') as {
    messages: { role: string; content: string }[];
  };
  return body.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
}

/** Starts `cw` with colour on in a fresh pane. */
async function start(home: string, ws: string): Promise<void> {
  term = TmuxSession.start(await models.folder('cw-md-tmux-'), {
    env: models.envFor(home),
    cwd: ws,
    color: true,
  });
  await waitForScreen('/help for commands', 'the banner');
}

describe.skipIf(!hasTmux)('cw chat on a colour terminal', () => {
  it('renders the reply’s Markdown, highlights a fenced block and folds a long tool output', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [shell('call_seq', 'seq 1 20')] } },
      {
        carries: [{ id: 'call_seq', includes: '20' }],
        reply: {
          text: '# Counted\n\nThe **numbers** are *printed*:\n\n- one\n- two\n\n```js\nconst total = 20;\n```\n\nSee `seq`.',
        },
      },
    );
    const ws = await models.folder('cw-md-ws-');
    await start(await models.home(model, { workspace: ws, approval: 'workspace' }), ws);
    current().type('count to twenty');
    await waitForScreen('See seq.', 'the last block of the reply', 20_000);
    await waitForScreen('tokens: ', 'the usage line');
    const screen = current().screen();
    // Rendered: no Markdown mark is left, the words are.
    expect(screen).toContain('Counted');
    expect(screen).toContain('The numbers are printed:');
    expect(screen).toContain('• one');
    expect(screen).toContain('const total = 20;');
    expect(screen).not.toContain('**');
    expect(screen).not.toContain('```');
    expect(screen).not.toContain('# Counted');
    // The fenced block in colour: the keyword and the number each in their own.
    const escapes = current().screen({ escapes: true });
    expect(escapes).toMatch(/\u001b\[[0-9;]*35m(?:\u001b\[[0-9;]*m)*const/);
    expect(escapes).toMatch(/\u001b\[[0-9;]*33m(?:\u001b\[[0-9;]*m)*20/);
    expect(escapes).toMatch(/\u001b\[[0-9;]*1m(?:\u001b\[[0-9;]*m)*numbers/);
    // The tool's output folded under its line: eight lines, then a count; the model read all twenty.
    expect(screen).toMatch(/✓ shell seq 1 20 \(ok, \d+ ms\)\n {2}1\n {2}2\n(?: {2}\d\n){5} {2}8\n {2}… \+\d+ lines\n/);
    expect(model.resultsOf(1).get('call_seq')).toContain('20');
    current().type('/exit');
    await waitFor(() => current().paneDead(), 5_000, 'cw to leave');
  }, 40_000);

  it('queues a line typed during a reply on a line of its own, keeps a half-typed one, and sends them after', async () => {
    const reply = gate();
    const model = await models.model(
      'chat-completions',
      { reply: { text: 'First paragraph.\n\nSecond **bold** paragraph,\nwith a second line.' }, pause: reply.promise },
      { reply: { text: 'Queued turn done.' } },
    );
    const ws = await models.folder('cw-md-ws-');
    await start(await models.home(model, { workspace: ws }), ws);
    current().type('go');
    // The first block is complete and shown; the second waits for the reply to go on.
    await waitForScreen('First paragraph.', 'the first block');
    current().type('and then this');
    await waitForScreen('queued: and then this', 'the queued line');
    // A line not yet entered stays on the line, unseen, until the prompt is back.
    current().tmux('send-keys', '-t', 'chat', '-l', 'half typed');
    reply.open();
    await waitForScreen('Queued turn done.', 'the queued turn', 20_000);
    await waitForScreen('› half typed', 'the half-typed line back at the prompt');
    const screen = current().screen();
    expect(screen).toContain('Second bold paragraph, with a second line.');
    expect(screen).not.toContain('**');
    // The typed words are only ever on cw's own lines, never echoed on their own or inside the reply's.
    for (const line of screen.split('\n').filter((each) => each.includes('and then this')))
      expect(line).toMatch(/^(?:queued: |› )and then this$/);
    for (const line of screen.split('\n').filter((each) => each.includes('half typed')))
      expect(line).toBe('› half typed');
    expect(screen.indexOf('with a second line.')).toBeLessThan(screen.indexOf('› and then this'));
    expect(model.requests).toHaveLength(2);
    expect(lastUserText(model, 1)).toMatch(/(?:^|\n)and then this$/);
    current().keys('C-u');
    current().type('/exit');
    await waitFor(() => current().paneDead(), 5_000, 'cw to leave');
  }, 40_000);

  it('queues the lines typed during /compact and sends them, in order, when it is done', async () => {
    const summary = gate();
    const model = await models.model(
      'chat-completions',
      { reply: { text: 'One.' } },
      { reply: { text: 'Two.' } },
      { reply: { text: 'Summary of the first turn.' }, pause: summary.promise },
      { reply: { text: 'Three.' } },
      { reply: { text: 'Four.' } },
    );
    const ws = await models.folder('cw-md-ws-');
    await start(await models.home(model, { workspace: ws }), ws);
    current().type('first');
    await waitForScreen('One.', 'the first reply');
    current().type('second');
    await waitForScreen('Two.', 'the second reply');
    current().type('/compact');
    await waitFor(() => model.requests.length === 3, 10_000, 'the compaction request');
    current().type('after one');
    await waitForScreen('queued: after one', 'the first queued line');
    current().type('after two');
    await waitForScreen('queued: after two', 'the second queued line');
    summary.open();
    await waitForScreen('compacted: ', 'the compaction');
    await waitForScreen('Four.', 'both queued turns', 20_000);
    expect(model.requests).toHaveLength(5);
    expect(lastUserText(model, 3)).toMatch(/(?:^|\n)after one$/);
    expect(lastUserText(model, 4)).toMatch(/(?:^|\n)after two$/);
    const screen = current().screen();
    expect(screen.indexOf('› after one')).toBeLessThan(screen.indexOf('Three.'));
    expect(screen.indexOf('Three.')).toBeLessThan(screen.indexOf('› after two'));
    current().type('/exit');
    await waitFor(() => current().paneDead(), 5_000, 'cw to leave');
  }, 60_000);
});
