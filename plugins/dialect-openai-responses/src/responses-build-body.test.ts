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
import { buildResponsesBody } from './responses-build-body.js';

const rowWithCap = (field: CapabilityRow['output_cap']['field']): CapabilityRow =>
  rowFor('openai-responses', field, 16000);

const readFile = READ_FILE_TOOL;
const listDir = LIST_DIR_TOOL;
const expectedTools: JsonValue[] = [
  {
    type: 'function',
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
  {
    type: 'function',
    name: 'list_dir',
    description: 'List a directory.',
    parameters: { type: 'object', properties: { dir: { type: 'string' } } },
    strict: false,
  },
];

const contextWith = (overrides: Partial<BuildContext> = {}): BuildContext =>
  buildContext(rowWithCap('max_output_tokens'), 4096, overrides);

const expectExactBody = (body: WireBody, expected: WireBody): void => expectBody('openai-responses', body, expected);

/** The whole body is valid against the published Responses schema, assistant replays included. */
function expectValidBody(body: WireBody): void {
  expect(validateWireBody('openai-responses', body).errors).toEqual([]);
}

const userItem = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hello.' }] };

describe('buildResponsesBody: plain turn', () => {
  const plain = {
    model: 'test-model',
    instructions: 'You are terse.',
    input: [userItem],
    max_output_tokens: 4096,
    stream: true,
    store: false,
  };

  it('streaming: model, instructions, input, cap, stream true, store false', () => {
    const body = buildResponsesBody(contextWith());
    expectExactBody(body, plain);
    expect(Object.keys(body)).toEqual(['model', 'instructions', 'input', 'max_output_tokens', 'stream', 'store']);
  });

  it('blocking: byte-identical to streaming (it streams too, and still sends store false)', () => {
    const blocking = buildResponsesBody(contextWith({ entrypoint: 'blocking' }));
    expectExactBody(blocking, plain);
    expect(JSON.stringify(blocking)).toBe(JSON.stringify(buildResponsesBody(contextWith())));
  });

  it('writes the cap under the field the row names, and none when the row sends none', () => {
    expect(buildResponsesBody(contextWith({ outputCapTokens: 321 }))['max_output_tokens']).toBe(321);
    expect(Object.keys(buildResponsesBody(contextWith({ row: rowWithCap(null) })))).toEqual([
      'model',
      'instructions',
      'input',
      'stream',
      'store',
    ]);
  });

  it('an empty system prompt leaves no instructions key at all', () => {
    for (const entrypoint of ['streaming', 'blocking'] as const) {
      const body = buildResponsesBody(contextWith({ system: '', entrypoint }));
      expectExactBody(body, {
        model: 'test-model',
        input: [userItem],
        max_output_tokens: 4096,
        stream: true,
        store: false,
      });
    }
  });
});

describe('buildResponsesBody: tools and tool_choice', () => {
  const cases: [string, ReconciledToolChoice, JsonValue][] = [
    ['auto', 'auto', 'auto'],
    ['none', 'none', 'none'],
    ['required', 'required', 'required'],
    ['a named tool (flat, no function wrapper)', { name: 'list_dir' }, { type: 'function', name: 'list_dir' }],
  ];

  for (const [label, toolChoice, wireChoice] of cases) {
    it(`tool_choice ${label}, after parallel_tool_calls`, () => {
      const body = buildResponsesBody(contextWith({ tools: [readFile, listDir], toolChoice }));
      expectExactBody(body, {
        model: 'test-model',
        instructions: 'You are terse.',
        input: [userItem],
        tools: expectedTools,
        parallel_tool_calls: true,
        tool_choice: wireChoice,
        max_output_tokens: 4096,
        stream: true,
        store: false,
      });
      expect(Object.keys(body)).toEqual([
        'model',
        'instructions',
        'input',
        'tools',
        'parallel_tool_calls',
        'tool_choice',
        'max_output_tokens',
        'stream',
        'store',
      ]);
    });
  }

  it('a null tool_choice leaves the key off; tools and parallel_tool_calls stay', () => {
    const body = buildResponsesBody(contextWith({ tools: [readFile, listDir], toolChoice: null }));
    expectExactBody(body, {
      model: 'test-model',
      instructions: 'You are terse.',
      input: [userItem],
      tools: expectedTools,
      parallel_tool_calls: true,
      max_output_tokens: 4096,
      stream: true,
      store: false,
    });
  });

  it('strict is always sent as a boolean, false included', () => {
    const body = buildResponsesBody(contextWith({ tools: [readFile, listDir] }));
    expect((body['tools'] as { strict: unknown }[]).map((tool) => tool.strict)).toEqual([true, false]);
  });

  it('no tools: no tools, no parallel_tool_calls, no tool_choice', () => {
    const body = buildResponsesBody(contextWith({ tools: [], toolChoice: null }));
    expect(Object.keys(body)).toEqual(['model', 'instructions', 'input', 'max_output_tokens', 'stream', 'store']);
  });
});

describe('buildResponsesBody: tool-call history', () => {
  const call = { id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' };
  const functionCall = { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' };
  const functionOutput = { type: 'function_call_output', call_id: 'call_1', output: 'file body' };
  const nextUser = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Now summarize.' }] };

  it('an assistant call without text is a function_call item only, then function_call_output, then the user message', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Read a.txt' },
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'file body' },
      { role: 'user', content: 'Now summarize.' },
    ];
    const body = buildResponsesBody(
      contextWith({ messages, tools: [readFile], toolChoice: 'auto', entrypoint: 'blocking' }),
    );
    expectExactBody(body, {
      model: 'test-model',
      instructions: 'You are terse.',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Read a.txt' }] },
        functionCall,
        functionOutput,
        nextUser,
      ],
      tools: expectedTools.slice(0, 1),
      parallel_tool_calls: true,
      tool_choice: 'auto',
      max_output_tokens: 4096,
      stream: true,
      store: false,
    });
  });

  it('an assistant call with text is a string-content assistant message followed by its function_call items', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Read two files' },
      {
        role: 'assistant',
        content: 'Reading both.',
        tool_calls: [call, { id: 'call_2', name: 'read_file', arguments: '{"path":"b.txt"}' }],
      },
      { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'A' },
      { role: 'tool', tool_call_id: 'call_2', name: 'read_file', content: 'B' },
      { role: 'user', content: 'Compare them.' },
    ];
    const body = buildResponsesBody(contextWith({ messages }));
    expect(body['input']).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Read two files' }] },
      { type: 'message', role: 'assistant', content: 'Reading both.' },
      functionCall,
      { type: 'function_call', call_id: 'call_2', name: 'read_file', arguments: '{"path":"b.txt"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'A' },
      { type: 'function_call_output', call_id: 'call_2', output: 'B' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Compare them.' }] },
    ]);
    expect(JSON.stringify((body['input'] as JsonValue[])[2])).toBe(
      '{"type":"function_call","call_id":"call_1","name":"read_file","arguments":"{\\"path\\":\\"a.txt\\"}"}',
    );
    expectValidBody(body);
  });

  it('an assistant turn with text and no calls is one string-content assistant message, never an output_text part', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'again' },
    ];
    const body = buildResponsesBody(contextWith({ messages, system: '' }));
    expect(body['input']).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'message', role: 'assistant', content: 'hello' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'again' }] },
    ]);
    expectValidBody(body);
  });

  it('an assistant turn with neither text nor calls adds no item', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'again' },
    ];
    const body = buildResponsesBody(contextWith({ messages }));
    expect(body['input']).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'again' }] },
    ]);
  });
});

describe('buildResponsesBody: replay', () => {
  const call = { id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' };
  const functionCall = { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' };
  const functionOutput = { type: 'function_call_output', call_id: 'call_1', output: 'file body' };
  const reasoning: JsonValue = {
    type: 'reasoning',
    id: 'rs_1',
    summary: [{ type: 'summary_text', text: 'Checking the file.' }],
    encrypted_content: 'gAAAAenc==',
  };
  const replayOf = (...items: JsonValue[]) => ({ dialect: 'openai-responses', items });

  it('puts the reasoning items, unchanged, right before the assistant turn’s function_call items', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Say hello.' },
      { role: 'assistant', content: '', tool_calls: [call], replay: replayOf(reasoning) },
      { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'file body' },
    ];
    const body = buildResponsesBody(contextWith({ messages }));
    expectExactBody(body, {
      model: 'test-model',
      instructions: 'You are terse.',
      input: [userItem, reasoning, functionCall, functionOutput],
      max_output_tokens: 4096,
      stream: true,
      store: false,
    });
  });

  it('with text, the reasoning items come before the assistant message', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Say hello.' },
      { role: 'assistant', content: 'Reading.', tool_calls: [call], replay: replayOf(reasoning) },
      { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'file body' },
    ];
    const body = buildResponsesBody(contextWith({ messages }));
    expect(body['input']).toEqual([
      userItem,
      reasoning,
      { type: 'message', role: 'assistant', content: 'Reading.' },
      functionCall,
      functionOutput,
    ]);
    expectValidBody(body);
  });

  it('an assistant message without replay sends no reasoning item', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Say hello.' },
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'file body' },
    ];
    expect(buildResponsesBody(contextWith({ messages }))['input']).toEqual([userItem, functionCall, functionOutput]);
  });

  it('leaves out a reasoning item without encrypted_content: with store false its id alone is not found', () => {
    const bare: JsonValue = { type: 'reasoning', id: 'rs_0', summary: [] };
    const nulled: JsonValue = { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: null };
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Say hello.' },
      { role: 'assistant', content: '', tool_calls: [call], replay: replayOf(bare, reasoning, nulled) },
      { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'file body' },
    ];
    expect(buildResponsesBody(contextWith({ messages }))['input']).toEqual([
      userItem,
      reasoning,
      functionCall,
      functionOutput,
    ]);
  });

  it('an empty reply sends no reasoning item: one without its following output item is refused', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Say hello.' },
      { role: 'assistant', content: '', replay: replayOf(reasoning) },
      { role: 'user', content: 'Again.' },
    ];
    expect(buildResponsesBody(contextWith({ messages }))['input']).toEqual([
      userItem,
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Again.' }] },
    ]);
  });
});
