// Approvals in the interactive session, driven in a real pseudo-terminal (tmux) against a scripted
// local model: an edit is shown as a coloured diff before it is answered and counted (+N −M) after;
// a refusal's reason reaches the model; `w` keeps the rule for the workspace; Esc interrupts like
// one Ctrl-C, at an approval question and during a reply; an MCP write_file shows its path relative
// to the workspace with the file's diff; cw send on a terminal asks the same way.
import { realpathSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { type ScriptedCall, useScriptedModels } from './support/scripted-model.js';
import { filesystemEntry } from './support/published-mcp-server.js';
import { runCwChild, waitFor } from './support/spawn-cw.js';
import { hasTmux, TmuxSession } from './support/tmux-session.js';

const models = useScriptedModels('CW_CHAT_APPROVALS_KEY', FAKE_KEY);
const call = (id: string, name: string, args: unknown): ScriptedCall => ({ id, name, arguments: JSON.stringify(args) });
const EDIT = call('call_edit', 'edit_file', { path: 'notes.txt', old_text: 'milk', new_text: 'bread' });
const REASON = 'keep the milk and add eggs';

let term: TmuxSession | undefined;
afterEach(() => {
  term?.close();
  term = undefined;
});

/** A workspace with notes.txt, a home whose approval is `ask`, and cw chat running in it. */
async function start(model: Parameters<typeof models.home>[0], color = false) {
  const ws = await models.folder('cw-chat-approvals-ws-');
  await writeFile(join(ws, 'notes.txt'), 'remember the milk\n');
  const home = await models.home(model, { workspace: ws, approval: 'ask' });
  const session = TmuxSession.start(await models.folder('cw-chat-approvals-tmux-'), {
    env: models.envFor(home),
    cwd: ws,
    color,
  });
  term = session;
  await session.waitForScreen('/help for commands', 'the banner');
  return { ws, home, session };
}

describe.skipIf(!hasTmux)('cw chat: approvals', () => {
  it('shows an edit as a coloured diff before it is answered, and +N −M after it ran', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [EDIT] } },
      { carries: [{ id: EDIT.id, includes: 'edited notes.txt' }], reply: { text: 'Swapped it.' } },
    );
    const { ws, session } = await start(model, true);
    session.type('swap milk for bread');
    await session.waitForScreen('run edit_file notes.txt?', 'the approval');
    const asked = session.screen();
    expect(asked).toContain('--- a/notes.txt');
    expect(asked).toContain('@@ -1,1 +1,1 @@');
    expect(asked).toContain('-remember the milk');
    expect(asked).toContain('+remember the bread');
    expect(asked).toContain('[w]orkspace: always allow this here');
    // Green additions, red removals, cyan hunk headers.
    const coloured = session.screen({ escapes: true });
    // (tmux may add its own resets between a colour and the text.)
    expect(coloured).toMatch(/\u001b\[32m(?:\u001b\[\d+m)*\+remember the bread/);
    expect(coloured).toMatch(/\u001b\[31m(?:\u001b\[\d+m)*-remember the milk/);
    expect(coloured).toMatch(/\u001b\[36m(?:\u001b\[\d+m)*@@ -1,1 \+1,1 @@/);
    session.type('y');
    await session.waitForScreen('Swapped it.', 'the reply');
    expect(session.screen()).toMatch(/✓ edit_file notes\.txt \(ok, \d+ ms\)\n {2}notes\.txt \+1 −1\n/);
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('remember the bread\n');
    expect(model.problems).toEqual([]);
  }, 30_000);

  it('n: reason refuses the call and the model reads the reason in its tool result', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [EDIT] } },
      { carries: [{ id: EDIT.id, includes: REASON }], reply: { text: 'Leaving the milk.' } },
    );
    const { ws, session } = await start(model);
    session.type('swap milk for bread');
    await session.waitForScreen('[n]o (n: why)', 'the approval');
    session.type(`n: ${REASON}`);
    await session.waitForScreen('Leaving the milk.', 'the reply');
    expect(session.screen()).toContain('· edit_file notes.txt (refused)');
    expect(model.resultsOf(1).get(EDIT.id)).toContain(`saying: ${REASON}`);
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('remember the milk\n');
    expect(model.problems).toEqual([]);
  }, 30_000);

  it('w keeps the call allowed in this workspace: the next edit runs without a question', async () => {
    const again = call('call_edit_2', 'edit_file', { path: 'notes.txt', old_text: 'bread', new_text: 'eggs' });
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [EDIT] } },
      { carries: [{ id: EDIT.id, includes: 'edited notes.txt' }], reply: { calls: [again] } },
      { carries: [{ id: again.id, includes: 'edited notes.txt' }], reply: { text: 'Both edits done.' } },
    );
    const { ws, home, session } = await start(model);
    session.type('edit twice');
    await session.waitForScreen('run edit_file notes.txt?', 'the approval');
    session.type('w');
    await session.waitForScreen('Both edits done.', 'the reply');
    expect(session.count('run edit_file')).toBe(1);
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('remember the eggs\n');
    // Kept in the cw home, where a later session (or cw send) reads it.
    const [kept] = await readdir(join(home, 'permissions'));
    expect(JSON.parse(await readFile(join(home, 'permissions', kept ?? ''), 'utf8'))).toEqual({ allow: ['edit_file'] });
    expect(model.problems).toEqual([]);
  }, 30_000);

  it('Esc at an approval question and during a reply interrupts like one Ctrl-C', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [EDIT] } },
      { reply: { text: 'A long answer begins', calls: [] }, hold: true },
    );
    const { ws, session } = await start(model);
    session.type('swap milk for bread');
    await session.waitForScreen('run edit_file notes.txt?', 'the approval');
    session.keys('Escape');
    await session.waitForScreen('cw: cancelled: the calls that ran are saved', 'the cancelled turn');
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('remember the milk\n');
    const prompts = session.count('› ');
    await waitFor(() => session.count('› ') >= prompts, 5_000, 'the prompt after Esc');
    session.type('go on');
    await session.waitForScreen('A long answer begins', 'the held reply');
    session.keys('Escape');
    await session.waitForScreen('cw: cancelled; the session is as it was', 'the cancelled reply');
    expect(session.paneDead()).toBe(false);
    expect(model.requests).toHaveLength(2);
  }, 30_000);

  it('cw send on a terminal asks the same way: the diff first, then n: why reaches the model', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [EDIT] } },
      { carries: [{ id: EDIT.id, includes: REASON }], reply: { text: 'Leaving the milk.' } },
    );
    const ws = await models.folder('cw-send-approvals-ws-');
    await writeFile(join(ws, 'notes.txt'), 'remember the milk\n');
    const home = await models.home(model, { workspace: ws, approval: 'ask' });
    const session = TmuxSession.start(await models.folder('cw-send-approvals-tmux-'), {
      env: models.envFor(home),
      cwd: ws,
      args: ['send', '--prompt', 'swap milk for bread'],
    });
    term = session;
    await session.waitForScreen('cw: run edit_file notes.txt? [y]es / [n]o (n: why)', 'the question');
    const asked = session.screen();
    expect(asked).toContain('--- a/notes.txt');
    expect(asked).toContain('-remember the milk');
    expect(asked).toContain('+remember the bread');
    session.type(`n: ${REASON}`);
    await session.waitForScreen('Leaving the milk.', 'the reply');
    await waitFor(() => session.paneDead(), 10_000, 'cw send to end');
    expect(session.exitStatus()).toBe(0);
    expect(model.resultsOf(1).get(EDIT.id)).toContain(`saying: ${REASON}`);
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('remember the milk\n');
  }, 30_000);

  it("an MCP write_file shows its path relative to the workspace, as cw send does, with the file's diff", async () => {
    const ws = realpathSync(await models.folder('cw-chat-mcp-write-ws-'));
    await writeFile(join(ws, 'notes.txt'), 'remember the milk\n');
    const write = call('call_write', 'mcp__fs__write_file', {
      path: join(ws, 'notes.txt'),
      content: 'remember the bread\n',
    });
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [write] } },
      { carries: [{ id: write.id, includes: '' }], reply: { text: 'Written.' } },
    );
    const home = await models.home(model, {
      workspace: ws,
      approval: 'ask',
      mcpServers: { fs: await filesystemEntry(ws) },
    });
    const refreshed = await runCwChild(['mcp', 'refresh'], models.envFor(home));
    expect(refreshed.code, refreshed.stderr).toBe(0);
    const session = TmuxSession.start(await models.folder('cw-chat-mcp-write-tmux-'), {
      env: models.envFor(home),
      cwd: ws,
    });
    term = session;
    await session.waitForScreen('/help for commands', 'the banner');
    session.type('write the note');
    await session.waitForScreen('always this [s]erver (fs): ', 'the approval');
    const asked = session.screen();
    expect(asked).toContain('arguments: path: "notes.txt"');
    expect(asked).not.toContain('path-redacted');
    expect(asked).not.toContain(ws);
    expect(asked).toContain('+remember the bread');
    session.type('y');
    await session.waitForScreen('Written.', 'the reply');
    expect(session.screen()).toMatch(/✓ mcp__fs__write_file fs\/write_file \(ok, \d+ ms\)\n {2}notes\.txt \+1 −1\n/);
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('remember the bread\n');
  }, 40_000);
});
