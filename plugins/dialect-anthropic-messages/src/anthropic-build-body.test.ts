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
import { buildAnthropicBody } from './anthropic-build-body.js';

const rowWithCap = (field: CapabilityRow['output_cap']['field']): CapabilityRow =>
  rowFor('anthropic-messages', field, 8192);

const readFile = READ_FILE_TOOL;
const listDir = LIST_DIR_TOOL;
const expectedTools: JsonValue[] = [
  {
    name: 'read_file',
    description: 'Read a file from the workspace.',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'list_dir',
    description: 'List a directory.',
    input_schema: { type: 'object', properties: { dir: { type: 'string' } } },
  },
];

const contextWith = (overrides: Partial<BuildContext> = {}): BuildContext =>
  buildContext(rowWithCap('max_tokens'), 2048, overrides);

const expectExactBody = (body: WireBody, expected: WireBody): void => expectBody('anthropic-messages', body, expected);

describe('buildAnthropicBody: plain turn', () => {
  it('streaming: model, max_tokens, system, messages, stream true; a lone text turn is a plain string', () => {
    const body = buildAnthropicBody(contextWith());
    expectExactBody(body, {
      model: 'test-model',
      max_tokens: 2048,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'Say hello.' }],
      stream: true,
    });
    expect(Object.keys(body)).toEqual(['model', 'max_tokens', 'system', 'messages', 'stream']);
  });

  it('blocking: the same body with stream false sent explicitly', () => {
    const body = buildAnthropicBody(contextWith({ entrypoint: 'blocking' }));
    expectExactBody(body, {
      model: 'test-model',
      max_tokens: 2048,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'Say hello.' }],
      stream: false,
    });
  });

  it('max_tokens is always present: a row without a cap field still gets max_tokens', () => {
    const body = buildAnthropicBody(contextWith({ row: rowWithCap(null), outputCapTokens: 99 }));
    expect(Object.keys(body)).toEqual(['model', 'max_tokens', 'system', 'messages', 'stream']);
    expect(body['max_tokens']).toBe(99);
  });

  it('an empty system prompt leaves no system key at all', () => {
    for (const entrypoint of ['streaming', 'blocking'] as const) {
      const body = buildAnthropicBody(contextWith({ system: '', entrypoint }));
      expectExactBody(body, {
        model: 'test-model',
        max_tokens: 2048,
        messages: [{ role: 'user', content: 'Say hello.' }],
        stream: entrypoint === 'streaming',
      });
      expect('system' in body).toBe(false);
    }
  });
});

describe('buildAnthropicBody: tools and tool_choice', () => {
  const cases: [string, ReconciledToolChoice, JsonValue][] = [
    ['auto', 'auto', { type: 'auto' }],
    ['none', 'none', { type: 'none' }],
    ['required (becomes any)', 'required', { type: 'any' }],
    ['a named tool', { name: 'list_dir' }, { type: 'tool', name: 'list_dir' }],
  ];

  for (const [label, toolChoice, wireChoice] of cases) {
    it(`tool_choice ${label}`, () => {
      const body = buildAnthropicBody(contextWith({ tools: [readFile, listDir], toolChoice }));
      expectExactBody(body, {
        model: 'test-model',
        max_tokens: 2048,
        system: 'You are terse.',
        messages: [{ role: 'user', content: 'Say hello.' }],
        tools: expectedTools,
        tool_choice: wireChoice,
        stream: true,
      });
      expect(Object.keys(body)).toEqual([
        'model',
        'max_tokens',
        'system',
        'messages',
        'tools',
        'tool_choice',
        'stream',
      ]);
    });
  }

  it('a null tool_choice leaves the key off, tools stay', () => {
    const body = buildAnthropicBody(
      contextWith({ tools: [readFile, listDir], toolChoice: null, entrypoint: 'blocking' }),
    );
    expectExactBody(body, {
      model: 'test-model',
      max_tokens: 2048,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'Say hello.' }],
      tools: expectedTools,
      stream: false,
    });
  });

  it('tools carry name, description, input_schema only: no strict, no OpenAI wrapper', () => {
    const body = buildAnthropicBody(contextWith({ tools: [readFile] }));
    const tool = (body['tools'] as { [key: string]: JsonValue }[])[0];
    expect(Object.keys(tool ?? {})).toEqual(['name', 'description', 'input_schema']);
  });

  it('no tools: neither tools nor tool_choice', () => {
    const body = buildAnthropicBody(contextWith({ tools: [], toolChoice: null }));
    expect('tools' in body).toBe(false);
    expect('tool_choice' in body).toBe(false);
  });
});

describe('buildAnthropicBody: tool-call history', () => {
  const call = { id: 'toolu_1', name: 'read_file', arguments: '{"path":"a.txt"}' };

  it('an assistant tool call without text is a tool_use-only turn; the tool result and the new user text merge into one user turn', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Read a.txt' },
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'tool', tool_call_id: 'toolu_1', name: 'read_file', content: 'file body' },
      { role: 'user', content: 'Now summarize.' },
    ];
    const body = buildAnthropicBody(
      contextWith({ messages, tools: [readFile], toolChoice: 'auto', entrypoint: 'blocking' }),
    );
    expectExactBody(body, {
      model: 'test-model',
      max_tokens: 2048,
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Read a.txt' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'file body' },
            { type: 'text', text: 'Now summarize.' },
          ],
        },
      ],
      tools: expectedTools.slice(0, 1),
      tool_choice: { type: 'auto' },
      stream: false,
    });
  });

  it('an assistant tool call with text puts the text block before the tool_use blocks', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Read two files' },
      {
        role: 'assistant',
        content: 'Reading both.',
        tool_calls: [call, { id: 'toolu_2', name: 'read_file', arguments: '{"path":"b.txt"}' }],
      },
      { role: 'tool', tool_call_id: 'toolu_1', name: 'read_file', content: 'A' },
      { role: 'tool', tool_call_id: 'toolu_2', name: 'read_file', content: 'B' },
      { role: 'user', content: 'Compare them.' },
    ];
    const body = buildAnthropicBody(contextWith({ messages }));
    expectExactBody(body, {
      model: 'test-model',
      max_tokens: 2048,
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Read two files' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Reading both.' },
            { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } },
            { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'b.txt' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'B' },
            { type: 'text', text: 'Compare them.' },
          ],
        },
      ],
      stream: true,
    });
  });

  it('consecutive user texts merge into one turn of text blocks (no longer a plain string)', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'first' },
      { role: 'user', content: 'second' },
    ];
    const body = buildAnthropicBody(contextWith({ messages }));
    expect(body['messages']).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ],
      },
    ]);
  });

  it('consecutive assistant turns merge too', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'one' },
      { role: 'assistant', content: 'two' },
      { role: 'user', content: 'ok' },
    ];
    const body = buildAnthropicBody(contextWith({ messages }));
    expect(body['messages']).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      { role: 'user', content: 'ok' },
    ]);
  });

  it('a lone tool_result block stays a block array: only a lone text block becomes a string', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'tool', tool_call_id: 'toolu_1', name: 'read_file', content: 'done' },
    ];
    const body = buildAnthropicBody(contextWith({ messages }));
    expect((body['messages'] as JsonValue[])[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }],
    });
  });

  it('tool_use input is the parsed arguments object; malformed or non-object arguments become {}', () => {
    const argumentsCases: [string, JsonValue][] = [
      ['{"path":"a.txt","n":[1,2]}', { path: 'a.txt', n: [1, 2] }],
      ['{"path": "a', {}],
      ['', {}],
      ['[1,2]', {}],
      ['"text"', {}],
      ['null', {}],
      ['42', {}],
    ];
    for (const [text, input] of argumentsCases) {
      const messages: ConversationMessage[] = [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'toolu_x', name: 'read_file', arguments: text }] },
        { role: 'tool', tool_call_id: 'toolu_x', name: 'read_file', content: 'r' },
      ];
      const body = buildAnthropicBody(contextWith({ messages }));
      expect((body['messages'] as JsonValue[])[1], text).toEqual({
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_x', name: 'read_file', input }],
      });
      expect(validateWireBody('anthropic-messages', body).errors).toEqual([]);
    }
  });
});

describe('buildAnthropicBody: empty replies', () => {
  it('leaves out an assistant turn with no text and no tool calls, so the user turns around it merge', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'again' },
    ];
    const body = buildAnthropicBody(contextWith({ messages, tools: [], toolChoice: null }));
    expect(body['messages']).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'again' },
        ],
      },
    ]);
    expect(validateWireBody('anthropic-messages', body).errors).toEqual([]);
  });
});

describe('buildAnthropicBody: replay', () => {
  const call = { id: 'toolu_1', name: 'read_file', arguments: '{"path":"a.txt"}' };
  const thinking: JsonValue = { type: 'thinking', thinking: 'Need the file.', signature: 'EqQBsig==' };
  const redacted: JsonValue = { type: 'redacted_thinking', data: 'EmwKAhgBEgy=' };
  const replay = { dialect: 'anthropic-messages', items: [thinking, redacted] };

  it('puts the thinking blocks first in the assistant turn, unchanged, before text and tool_use', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Read a.txt' },
      { role: 'assistant', content: 'Reading.', tool_calls: [call], replay },
      { role: 'tool', tool_call_id: 'toolu_1', name: 'read_file', content: 'file body' },
    ];
    const body = buildAnthropicBody(contextWith({ messages, tools: [readFile], toolChoice: 'auto' }));
    expectExactBody(body, {
      model: 'test-model',
      max_tokens: 2048,
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Read a.txt' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Need the file.', signature: 'EqQBsig==' },
            { type: 'redacted_thinking', data: 'EmwKAhgBEgy=' },
            { type: 'text', text: 'Reading.' },
            { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'file body' }] },
      ],
      tools: expectedTools.slice(0, 1),
      tool_choice: { type: 'auto' },
      stream: true,
    });
  });

  it('a tool_use-only turn gets its thinking block first; a lone text reply with thinking stays a block array', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [call],
        replay: { dialect: 'anthropic-messages', items: [thinking] },
      },
      { role: 'tool', tool_call_id: 'toolu_1', name: 'read_file', content: 'r' },
      { role: 'assistant', content: 'Done.', replay: { dialect: 'anthropic-messages', items: [thinking] } },
    ];
    const turns = buildAnthropicBody(contextWith({ messages }))['messages'] as JsonValue[];
    expect(turns[1]).toEqual({
      role: 'assistant',
      content: [thinking, { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } }],
    });
    expect(turns[3]).toEqual({ role: 'assistant', content: [thinking, { type: 'text', text: 'Done.' }] });
  });

  it('an assistant message without replay sends no thinking blocks', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Read a.txt' },
      { role: 'assistant', content: 'Reading.', tool_calls: [call] },
      { role: 'tool', tool_call_id: 'toolu_1', name: 'read_file', content: 'file body' },
    ];
    const turns = buildAnthropicBody(contextWith({ messages }))['messages'] as JsonValue[];
    expect(turns[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } },
      ],
    });
  });

  it('an empty reply is left out with its thinking: a turn of thinking alone is not sent', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', replay },
      { role: 'user', content: 'again' },
    ];
    const body = buildAnthropicBody(contextWith({ messages }));
    expect(body['messages']).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'again' },
        ],
      },
    ]);
  });
});
