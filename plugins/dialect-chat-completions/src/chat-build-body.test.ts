import type {
  BuildContext,
  CapabilityRow,
  ConversationMessage,
  JsonValue,
  ReconciledToolChoice,
  WireBody,
} from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import {
  LIST_DIR_TOOL,
  READ_FILE_TOOL,
  buildContext,
  expectExactBody as expectBody,
  rowWithCap as rowFor,
} from '../../../test/support/build-context.js';
import { validateWireBody } from '../../../test/support/wire-schemas.js';
import { buildChatBody } from './chat-build-body.js';

const rowWithCap = (field: CapabilityRow['output_cap']['field']): CapabilityRow =>
  rowFor('chat-completions', field, 4096);

const readFile = READ_FILE_TOOL;
const listDir = LIST_DIR_TOOL;

const contextWith = (overrides: Partial<BuildContext> = {}): BuildContext =>
  buildContext(rowWithCap('max_tokens'), 1024, overrides);

const expectExactBody = (body: WireBody, expected: WireBody): void => expectBody('chat-completions', body, expected);

const plainMessages = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Say hello.' },
];

describe('buildChatBody: plain turn', () => {
  it('streaming: model, messages, cap, stream, stream_options with include_usage', () => {
    const body = buildChatBody(contextWith());
    expectExactBody(body, {
      model: 'test-model',
      messages: plainMessages,
      max_tokens: 1024,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(Object.keys(body)).toEqual(['model', 'messages', 'max_tokens', 'stream', 'stream_options']);
  });

  it('blocking: no stream key and no stream_options at all', () => {
    const body = buildChatBody(contextWith({ entrypoint: 'blocking' }));
    expectExactBody(body, { model: 'test-model', messages: plainMessages, max_tokens: 1024 });
    expect(Object.keys(body)).toEqual(['model', 'messages', 'max_tokens']);
  });

  it('writes the cap under the field the row names', () => {
    const body = buildChatBody(
      contextWith({ row: rowWithCap('max_completion_tokens'), entrypoint: 'blocking', outputCapTokens: 777 }),
    );
    expectExactBody(body, { model: 'test-model', messages: plainMessages, max_completion_tokens: 777 });
  });

  it('sends no cap key when the row sends none', () => {
    const body = buildChatBody(contextWith({ row: rowWithCap(null), entrypoint: 'blocking' }));
    expect(Object.keys(body)).toEqual(['model', 'messages']);
  });
});

describe('buildChatBody: empty system prompt', () => {
  it('has no system item at all, on both entry points', () => {
    for (const entrypoint of ['streaming', 'blocking'] as const) {
      const body = buildChatBody(contextWith({ system: '', entrypoint }));
      expect(body['messages']).toEqual([{ role: 'user', content: 'Say hello.' }]);
      expect(validateWireBody('chat-completions', body).errors).toEqual([]);
    }
  });
});

describe('buildChatBody: tools and tool_choice', () => {
  const expectedTools: JsonValue[] = [
    {
      type: 'function',
      function: {
        name: 'read_file',
        description: 'Read a file from the workspace.',
        parameters: {
          type: 'object',
          properties: { path: { type: 'string' } },
          required: ['path'],
          additionalProperties: false,
        },
        strict: true,
      },
    },
    {
      type: 'function',
      function: {
        name: 'list_dir',
        description: 'List a directory.',
        parameters: { type: 'object', properties: { dir: { type: 'string' } } },
      },
    },
  ];

  const cases: [string, ReconciledToolChoice, JsonValue][] = [
    ['auto', 'auto', 'auto'],
    ['none', 'none', 'none'],
    ['required', 'required', 'required'],
    ['a named tool', { name: 'list_dir' }, { type: 'function', function: { name: 'list_dir' } }],
  ];

  for (const [label, toolChoice, wireChoice] of cases) {
    it(`tool_choice ${label} sits between tools and the cap`, () => {
      const body = buildChatBody(contextWith({ tools: [readFile, listDir], toolChoice }));
      expectExactBody(body, {
        model: 'test-model',
        messages: plainMessages,
        tools: expectedTools,
        tool_choice: wireChoice,
        max_tokens: 1024,
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(Object.keys(body)).toEqual([
        'model',
        'messages',
        'tools',
        'tool_choice',
        'max_tokens',
        'stream',
        'stream_options',
      ]);
    });
  }

  it('a null tool_choice leaves the key off the body', () => {
    const body = buildChatBody(contextWith({ tools: [readFile, listDir], toolChoice: null, entrypoint: 'blocking' }));
    expectExactBody(body, { model: 'test-model', messages: plainMessages, tools: expectedTools, max_tokens: 1024 });
    expect('tool_choice' in body).toBe(false);
  });

  it('strict: true only on the tool whose spec is strict, never strict: false', () => {
    const body = buildChatBody(contextWith({ tools: [readFile, listDir] }));
    const functions = (body['tools'] as { function: Record<string, unknown> }[]).map((tool) => tool.function);
    expect(functions[0]?.['strict']).toBe(true);
    expect('strict' in (functions[1] ?? {})).toBe(false);
    expect(Object.keys(functions[0] ?? {})).toEqual(['name', 'description', 'parameters', 'strict']);
  });

  it('no tools and no choice: neither key is on the body', () => {
    const body = buildChatBody(contextWith({ tools: [], toolChoice: null, entrypoint: 'blocking' }));
    expect(Object.keys(body)).toEqual(['model', 'messages', 'max_tokens']);
  });
});

describe('buildChatBody: tool-call history', () => {
  const toolResult: ConversationMessage = {
    role: 'tool',
    tool_call_id: 'call_1',
    name: 'read_file',
    content: 'file body',
  };
  const call = { id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' };

  it('an assistant call without text carries content null, then the tool result, then the new user message', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Read a.txt' },
      { role: 'assistant', content: '', tool_calls: [call] },
      toolResult,
      { role: 'user', content: 'Now summarize.' },
    ];
    const body = buildChatBody(
      contextWith({ messages, tools: [readFile], toolChoice: 'auto', entrypoint: 'blocking' }),
    );
    expectExactBody(body, {
      model: 'test-model',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Read a.txt' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'file body' },
        { role: 'user', content: 'Now summarize.' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'read_file',
            description: 'Read a file from the workspace.',
            parameters: {
              type: 'object',
              properties: { path: { type: 'string' } },
              required: ['path'],
              additionalProperties: false,
            },
            strict: true,
          },
        },
      ],
      tool_choice: 'auto',
      max_tokens: 1024,
    });
  });

  it('an assistant call with text keeps the text as content', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Read a.txt' },
      { role: 'assistant', content: 'Reading it.', tool_calls: [call] },
      toolResult,
      { role: 'user', content: 'Now summarize.' },
    ];
    const body = buildChatBody(contextWith({ messages, entrypoint: 'blocking' }));
    const items = body['messages'] as WireBody[];
    expect(items[2]).toEqual({
      role: 'assistant',
      content: 'Reading it.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }],
    });
    expect(JSON.stringify(items[2])).toBe(
      '{"role":"assistant","content":"Reading it.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\\"path\\":\\"a.txt\\"}"}}]}',
    );
    expect(validateWireBody('chat-completions', body).errors).toEqual([]);
  });

  it('an assistant turn without calls is a plain text item with no tool_calls key', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello', tool_calls: [] },
      { role: 'user', content: 'again' },
    ];
    const body = buildChatBody(contextWith({ messages, system: '', entrypoint: 'blocking' }));
    expect(body['messages']).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'again' },
    ]);
  });

  it('keeps the arguments text byte for byte, even when it is not valid JSON', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_9', name: 'read_file', arguments: '{"path": "a' }] },
      { role: 'tool', tool_call_id: 'call_9', name: 'read_file', content: 'error' },
    ];
    const body = buildChatBody(contextWith({ messages, entrypoint: 'blocking' }));
    const assistant = (body['messages'] as { tool_calls?: { function: { arguments: string } }[] }[])[2];
    expect(assistant?.tool_calls?.[0]?.function.arguments).toBe('{"path": "a');
  });
});

describe('buildChatBody: replay', () => {
  const call = { id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' };
  const wireCall = { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } };
  const replay = { dialect: 'chat-completions', items: [{ reasoning_content: 'Need the file.' }] };

  it('an assistant call with replay carries reasoning_content after content, before tool_calls', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Read a.txt' },
      { role: 'assistant', content: '', tool_calls: [call], replay },
      { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'file body' },
    ];
    const body = buildChatBody(contextWith({ messages, entrypoint: 'blocking' }));
    expectExactBody(body, {
      model: 'test-model',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Read a.txt' },
        { role: 'assistant', content: null, reasoning_content: 'Need the file.', tool_calls: [wireCall] },
        { role: 'tool', tool_call_id: 'call_1', content: 'file body' },
      ],
      max_tokens: 1024,
    });
  });

  it('an assistant reply without calls carries it after content too', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.', replay },
    ];
    const body = buildChatBody(contextWith({ messages }));
    expect(JSON.stringify((body['messages'] as JsonValue[])[2])).toBe(
      '{"role":"assistant","content":"Hello.","reasoning_content":"Need the file."}',
    );
  });

  it('no replay, or a replay without reasoning text, sends no reasoning_content', () => {
    for (const message of [
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'assistant', content: '', tool_calls: [call], replay: { dialect: 'chat-completions', items: [] } },
      {
        role: 'assistant',
        content: '',
        tool_calls: [call],
        replay: { dialect: 'chat-completions', items: [{ reasoning_content: '' }, 'odd', null] },
      },
    ] as ConversationMessage[]) {
      const body = buildChatBody(contextWith({ messages: [{ role: 'user', content: 'go' }, message] }));
      expect((body['messages'] as JsonValue[])[2]).toEqual({
        role: 'assistant',
        content: null,
        tool_calls: [wireCall],
      });
    }
  });
});
