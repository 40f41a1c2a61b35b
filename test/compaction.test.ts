// Compaction end to end (docs/compaction.md): the BUILT CLI on a route with a small window and a
// session whose older turns fill it. Preview reports runtime-transforms-before-send (route and tools
// exact, no body) and leaves the home byte-identical; cw send first sends one summarising request on
// the same route (no tools, the older turns as a transcript), saves the summary in their place, then
// sends the turn, with every tool call still answered. A failed compaction changes nothing; a request
// still over the budget after compaction is refused; `cw compact` runs it on demand.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY, sessionFile, writeSession } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { previewFromWorkspace } from './support/preview-from-workspace.js';
import { type ScriptedModel, unanswered, useScriptedModels, type WireView } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';
import { withoutNoSandboxNotice } from './support/require-bubblewrap.js';

const KEY_ENV = 'CW_COMPACT_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

const SMALL_ROUTE = { context_window: 12_000, max_output_tokens: 1_000 };

/** Older turns of `size` characters each (one with a tool call and its result), then a short recent turn with its own call. */
function history(size: number, olderTurns = 2): Record<string, unknown>[] {
  const older: Record<string, unknown>[] = [];
  for (let turn = 0; turn < olderTurns; turn++) {
    older.push({ role: 'user', content: `OLDER-${turn} ${'o'.repeat(size)}` });
    if (turn === 0) {
      older.push({
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'old_call', name: 'read_file', arguments: '{"path":"a.txt"}' }],
      });
      older.push({
        role: 'tool',
        tool_call_id: 'old_call',
        name: 'read_file',
        content: `OLD-RESULT ${'r'.repeat(size / 2)}`,
      });
    }
    older.push({ role: 'assistant', content: `older answer ${turn}` });
  }
  return [
    ...older,
    { role: 'user', content: 'RECENT question' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'recent_call', name: 'read_file', arguments: '{"path":"b.txt"}' }],
    },
    { role: 'tool', tool_call_id: 'recent_call', name: 'read_file', content: 'RECENT-RESULT' },
    { role: 'assistant', content: 'recent answer' },
  ];
}

async function homeWith(model: ScriptedModel, compaction: Record<string, unknown>, messages: unknown[]) {
  const ws = await models.folder('cw-compact-ws-');
  const home = await models.home(model, { workspace: ws, approval: 'workspace', compaction });
  const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8')) as {
    routes: { fault: Record<string, unknown> };
  };
  Object.assign(config.routes.fault, SMALL_ROUTE);
  const { writeFile } = await import('node:fs/promises');
  await writeFile(join(home, 'config.json'), JSON.stringify(config));
  await writeSession(home, 'default', messages, ws);
  return { home, env: models.envFor(home), ws };
}

const preview = previewFromWorkspace;

const stored = async (home: string) =>
  (
    JSON.parse(await readFile(await sessionFile(home), 'utf8')) as {
      messages: Record<string, unknown>[];
    }
  ).messages;

const summaryRequestChecks = (view: WireView): string[] => {
  const problems: string[] = [];
  if (view.body['tools'] !== undefined) problems.push('the summary request carries tools');
  if (view.sequence.length > 0) problems.push('the summary request replays tool calls');
  if (!view.strings.some((text) => text.includes('<transcript>') && text.includes('OLDER-1')))
    problems.push('the summary request lacks the transcript');
  if (view.strings.some((text) => text.includes('RECENT question'))) problems.push('the recent turn was summarised');
  return problems;
};

const compactedRequestChecks = (view: WireView): string[] => {
  const problems: string[] = [];
  if (view.strings.some((text) => text.includes('OLDER-0') || text.includes('OLD-RESULT')))
    problems.push('older turns are still sent');
  if (!view.strings.some((text) => text.includes('SUMMARY-TEXT'))) problems.push('the summary is not sent');
  const open = unanswered(view);
  if (open.calls.length > 0 || open.orphans.length > 0) problems.push(`tool pairs broken: ${JSON.stringify(open)}`);
  if (!view.sequence.some((item) => item.id === 'recent_call')) problems.push('the recent tool pair was dropped');
  return problems;
};

describe('auto-compaction before a send', () => {
  it('preview says runtime-transforms-before-send; send compacts on the same route, saves, then sends', async () => {
    const model = await models.model(
      'chat-completions',
      { check: summaryRequestChecks, reply: { text: 'SUMMARY-TEXT: read a.txt, answered twice' } },
      { check: compactedRequestChecks, reply: { text: 'carried on' } },
    );
    const { home, env, ws } = await homeWith(model, { threshold: 0.4 }, history(8_000));
    const manifest = await preview(home, env, ws, 'next');
    expect('exact' in manifest.route && 'exact' in manifest.tools).toBe(true);
    expect(manifest.body).toEqual({
      unavailable: {
        reason: 'runtime-transforms-before-send',
        detail: expect.stringMatching(
          /^auto-compaction would summarise 6 earlier messages first: about \d+ input tokens against a threshold of 3990 \(0\.4 of the input budget\)$/,
        ),
      },
    });
    // Without a prompt the turn is not known, and nothing is said about compaction.
    expect((await preview(home, env, ws)).body).toMatchObject({
      unavailable: { reason: 'no-hypothetical-prompt-supplied' },
    });

    const sent = await runCwChild(['send', '--prompt', 'next'], env, { cwd: ws });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toContain('compacted the session: 6 earlier messages replaced by a summary');
    expect(sent.stdout).toContain('carried on');
    expect(model.problems).toEqual([]);
    expect(model.requests).toHaveLength(2);
    const messages = await stored(home);
    expect(messages[0]).toMatchObject({ role: 'user', summary_of: 6 });
    expect(String(messages[0]?.['content'])).toContain('SUMMARY-TEXT: read a.txt, answered twice');
    expect(messages.slice(1).map((message) => message['role'])).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
    ]);

    // Now below the threshold: the body is exact again, and the summary is not summarised again.
    const after = await preview(home, env, ws, 'more');
    expect('exact' in after.body).toBe(true);
  });

  it('overflow recovery: a body over the budget is input-budget-exceeded without compaction and compacted with it', async () => {
    const messages = history(14_000, 3);
    const off = await homeWith(await models.model('chat-completions'), { enabled: false }, messages);
    expect((await preview(off.home, off.env, off.ws, 'next')).body).toMatchObject({
      unavailable: { reason: 'input-budget-exceeded' },
    });
    const before = await homeBytes(off.home);
    const refused = await runCwChild(['send', '--prompt', 'next'], off.env, { cwd: off.ws });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('input budget');
    expect(await homeBytes(off.home)).toEqual(before);

    // With compaction on, the transcript is itself too large: its earliest messages are left out until it fits.
    const model = await models.model(
      'chat-completions',
      {
        check: (view) =>
          view.strings.some((text) => text.includes('earliest messages are left out')) ? [] : ['nothing was left out'],
        reply: { text: 'SUMMARY-TEXT' },
      },
      { check: compactedRequestChecks, reply: { text: 'fits now' } },
    );
    const on = await homeWith(model, {}, messages);
    expect((await preview(on.home, on.env, on.ws, 'next')).body).toMatchObject({
      unavailable: { reason: 'runtime-transforms-before-send' },
    });
    const sent = await runCwChild(['send', '--prompt', 'next'], on.env, { cwd: on.ws });
    expect(sent.code, sent.stderr).toBe(0);
    expect(model.problems).toEqual([]);
  });

  it('a failed compaction leaves the session byte-identical and sends nothing else', async () => {
    const model = await models.model('chat-completions', { reply: { text: '   ' } });
    const { home, env, ws } = await homeWith(model, { threshold: 0.4 }, history(8_000));
    const before = await homeBytes(home);
    const sent = await runCwChild(['send', '--prompt', 'next'], env, { cwd: ws });
    expect(sent.code).toBe(1);
    expect(withoutNoSandboxNotice(sent.stderr)).toBe('cw: the compaction summary came back empty; nothing was saved\n');
    expect(model.requests).toHaveLength(1);
    expect(await homeBytes(home)).toEqual(before);
  });

  it('a request still over the budget after compaction is refused', async () => {
    const messages = history(2_000);
    // The recent turn alone does not fit: compaction runs, then the turn is refused as without it.
    (messages.at(-3) as { content: string }).content = `RECENT-RESULT ${'x'.repeat(48_000)}`;
    const model = await models.model('chat-completions', { reply: { text: 'SUMMARY-TEXT' } });
    const { home, env, ws } = await homeWith(model, {}, messages);
    const sent = await runCwChild(['send', '--prompt', 'next'], env, { cwd: ws });
    expect(sent.code).toBe(1);
    expect(sent.stderr).toContain('input budget');
    expect(model.requests).toHaveLength(1);
    expect((await stored(home))[0]).toMatchObject({ summary_of: 6 });
  });

  it('cw compact runs it on demand, below the threshold too; with nothing older it changes nothing', async () => {
    const model = await models.model('chat-completions', {
      check: summaryRequestChecks,
      reply: { text: 'SUMMARY-TEXT' },
    });
    const { home, env, ws } = await homeWith(model, {}, history(100));
    expect('exact' in (await preview(home, env, ws, 'next')).body).toBe(true);
    const run = await runCwChild(['compact', '--json'], env, { cwd: ws });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      session: 'default',
      compacted: true,
      summarised_messages: 6,
      kept_messages: 4,
    });
    expect(model.problems).toEqual([]);
    const before = await homeBytes(home);
    const again = await runCwChild(['compact'], env, { cwd: ws });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('Nothing to compact: session default has no turns before the latest ones it keeps.\n');
    expect(model.requests).toHaveLength(1);
    expect(await homeBytes(home)).toEqual(before);
  });

  it('config compaction is checked: a threshold out of range is a one-line error', async () => {
    const model = await models.model('chat-completions');
    const { env, ws } = await homeWith(model, { threshold: 1.5 }, []);
    const run = await runCwChild(['preview-request', 'json', '--prompt', 'x'], env, { cwd: ws });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^cw: config\.json:1:\d+: compaction\.threshold: too large; found 1\.5; accepted: at most 1\n$/,
    );
  });
});
