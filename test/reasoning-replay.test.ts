// Reasoning replay end to end through the core: what a stored assistant message's `replay` becomes in
// the previewed body, per dialect, per the dialect that stored it and per the route's replay policy.
import { previewRequest, type PluginRegistry } from '@cw/core';
import type { JsonValue, WireBody } from '@cw/core/plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinRegistry, removeHome, snapshotOf, tempHome, writeSession } from './support/cw-fixture.js';
import { validateWireBody } from './support/wire-schemas.js';

const THINKING: JsonValue = { type: 'thinking', thinking: 'Need the file first.', signature: 'EqQBsig==' };
const REDACTED: JsonValue = { type: 'redacted_thinking', data: 'EmwKAhgBEgy=' };
const REASONING_ITEM: JsonValue = {
  type: 'reasoning',
  id: 'rs_1',
  summary: [{ type: 'summary_text', text: 'Need the file first.' }],
  encrypted_content: 'gAAAAenc==',
};
const REASONING_CONTENT: JsonValue = { reasoning_content: 'Need the file first.' };

const call = (id: string) => ({ id, name: 'read_file', arguments: '{"path":"a.txt"}' });
const replay = (dialect: string, ...items: JsonValue[]) => ({ dialect, items });

/** One tool-loop step: the model called read_file with reasoning state `replayed`, and the result came back. */
function toolStep(id: string, replayed: ReturnType<typeof replay> | null): unknown[] {
  return [
    { role: 'assistant', content: '', tool_calls: [call(id)], ...(replayed === null ? {} : { replay: replayed }) },
    { role: 'tool', tool_call_id: id, name: 'read_file', content: 'file body', status: 'ok' },
  ];
}

let registry: PluginRegistry;
const homes: string[] = [];

beforeAll(async () => {
  registry = await builtinRegistry();
});
afterAll(async () => {
  await Promise.all(homes.map(removeHome));
});

/** The body preview builds on `route` for a session of `messages`: the continuation, or a new prompt. */
async function previewBody(route: string, messages: unknown[], prompt?: string): Promise<WireBody> {
  const home = await tempHome({ route });
  homes.push(home);
  await writeSession(home, 'default', messages, null);
  const result = previewRequest(await snapshotOf(home, registry), prompt, 'streaming');
  expect(result.plan.status, JSON.stringify(result.plan.status === 'blocked' ? result.plan.detail : null)).toBe(
    'ready',
  );
  return result.prepared!.body;
}

const assistantTurns = (body: WireBody): JsonValue[] =>
  (body['messages'] as { role: string }[]).filter((message) => message.role === 'assistant') as JsonValue[];

describe('reasoning replay: the route dialect’s own replay goes back in the tool loop', () => {
  it('anthropic: the thinking blocks open the assistant turn, before its tool_use', async () => {
    const body = await previewBody('anthropic', [
      { role: 'user', content: 'Read a.txt' },
      ...toolStep('toolu_1', replay('anthropic-messages', THINKING, REDACTED)),
    ]);
    expect(assistantTurns(body)).toEqual([
      {
        role: 'assistant',
        content: [THINKING, REDACTED, { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } }],
      },
    ]);
    expect(validateWireBody('anthropic-messages', body).errors).toEqual([]);
  });

  it('codex: the reasoning item comes right before the function_call item', async () => {
    const body = await previewBody('codex', [
      { role: 'user', content: 'Read a.txt' },
      ...toolStep('call_1', replay('openai-responses', REASONING_ITEM)),
    ]);
    const input = body['input'] as JsonValue[];
    expect(input.slice(1)).toEqual([
      REASONING_ITEM,
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'file body' },
    ]);
    expect(validateWireBody('openai-responses', body).errors).toEqual([]);
  });

  it('deepseek: the assistant message carries reasoning_content after content, before tool_calls', async () => {
    const body = await previewBody('deepseek', [
      { role: 'user', content: 'Read a.txt' },
      ...toolStep('call_1', replay('chat-completions', REASONING_CONTENT)),
    ]);
    const [assistant] = assistantTurns(body);
    expect(assistant).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'Need the file first.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }],
    });
    expect(Object.keys(assistant as object)).toEqual(['role', 'content', 'reasoning_content', 'tool_calls']);
  });

  it('each step of the loop keeps its own replay, in order', async () => {
    const second: JsonValue = { ...(THINKING as object), thinking: 'Now b.txt.', signature: 'sig2' };
    const body = await previewBody('anthropic', [
      { role: 'user', content: 'Read a.txt and b.txt' },
      ...toolStep('toolu_1', replay('anthropic-messages', THINKING)),
      ...toolStep('toolu_2', replay('anthropic-messages', second)),
    ]);
    const firstBlocks = assistantTurns(body).map((turn) => (turn as { content: JsonValue[] }).content[0]);
    expect(firstBlocks).toEqual([THINKING, second]);
  });
});

describe('reasoning replay: what is not sent', () => {
  it('a replay another dialect stored is not sent', async () => {
    const anthropic = await previewBody('anthropic', [
      { role: 'user', content: 'Read a.txt' },
      ...toolStep('toolu_1', replay('openai-responses', REASONING_ITEM)),
    ]);
    expect(assistantTurns(anthropic)).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } }],
      },
    ]);
    expect(JSON.stringify(anthropic)).not.toContain('rs_1');

    const codex = await previewBody('codex', [
      { role: 'user', content: 'Read a.txt' },
      ...toolStep('call_1', replay('anthropic-messages', THINKING)),
    ]);
    expect((codex['input'] as JsonValue[]).some((item) => JSON.stringify(item).includes('EqQBsig=='))).toBe(false);

    const deepseek = await previewBody('deepseek', [
      { role: 'user', content: 'Read a.txt' },
      ...toolStep('call_1', replay('anthropic-messages', THINKING)),
    ]);
    expect(assistantTurns(deepseek)[0]).not.toHaveProperty('reasoning_content');
  });

  it('tool-loop (anthropic): the replay of a turn before the last user message is not sent, the current one is', async () => {
    const current: JsonValue = { ...(THINKING as object), thinking: 'Second question.', signature: 'sig2' };
    const body = await previewBody('anthropic', [
      { role: 'user', content: 'Read a.txt' },
      ...toolStep('toolu_1', replay('anthropic-messages', THINKING)),
      { role: 'assistant', content: 'It says hello.', replay: replay('anthropic-messages', THINKING) },
      { role: 'user', content: 'Now read it again' },
      ...toolStep('toolu_2', replay('anthropic-messages', current)),
    ]);
    expect(assistantTurns(body)).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } }],
      },
      { role: 'assistant', content: 'It says hello.' },
      {
        role: 'assistant',
        content: [current, { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'a.txt' } }],
      },
    ]);
    expect(JSON.stringify(body)).not.toContain('EqQBsig==');
  });

  it('tool-loop (codex): a new prompt sends none of the earlier turn’s reasoning items', async () => {
    const body = await previewBody(
      'codex',
      [
        { role: 'user', content: 'Read a.txt' },
        ...toolStep('call_1', replay('openai-responses', REASONING_ITEM)),
        { role: 'assistant', content: 'It says hello.' },
      ],
      'Thanks. And b.txt?',
    );
    expect((body['input'] as JsonValue[]).filter((item) => (item as { type?: string }).type === 'reasoning')).toEqual(
      [],
    );
  });

  it('always (deepseek): reasoning_content of an earlier tool-calling turn still goes back after a new prompt', async () => {
    const body = await previewBody(
      'deepseek',
      [
        { role: 'user', content: 'Read a.txt' },
        ...toolStep('call_1', replay('chat-completions', REASONING_CONTENT)),
        {
          role: 'assistant',
          content: 'It says hello.',
          replay: replay('chat-completions', { reasoning_content: 'Done.' }),
        },
      ],
      'Thanks. And b.txt?',
    );
    expect(assistantTurns(body).map((turn) => (turn as { reasoning_content?: string }).reasoning_content)).toEqual([
      'Need the file first.',
      'Done.',
    ]);
  });
});
