import type { BuildContext, CapabilityRow, ConversationMessage, WireBody } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import {
  LIST_DIR_TOOL,
  READ_FILE_TOOL,
  buildContext,
  expectExactBody as expectBody,
} from '../../../test/support/build-context.js';
import { buildOllamaBody } from './ollama-build-body.js';

/** The fields the builder reads: the cap's field and the window it tells the server. */
const row = (field: string | null, window = 32_768): CapabilityRow =>
  ({
    dialect: 'ollama-chat',
    output_cap: { field, default_tokens: 4096 },
    context: { window_tokens: window },
  }) as unknown as CapabilityRow;
const contextWith = (overrides: Partial<BuildContext> = {}): BuildContext =>
  buildContext(row('options.num_predict'), 2048, overrides);
const expectExactBody = (body: WireBody, expected: WireBody): void => expectBody('ollama-chat', body, expected);

describe('buildOllamaBody: plain turn', () => {
  it('streaming: model, messages with the system message first, stream true, options with cap and context size', () => {
    expectExactBody(buildOllamaBody(contextWith()), {
      model: 'test-model',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say hello.' },
      ],
      stream: true,
      options: { num_predict: 2048, num_ctx: 32_768 },
    });
  });

  it('blocking says stream false (the server streams by default); no cap field, no num_predict', () => {
    const body = buildOllamaBody(
      contextWith({ entrypoint: 'blocking', system: '', row: row(null, 8192), outputCapTokens: 5 }),
    );
    expectExactBody(body, {
      model: 'test-model',
      messages: [{ role: 'user', content: 'Say hello.' }],
      stream: false,
      options: { num_ctx: 8192 },
    });
  });

  it('declares tools in the function shape, and never writes a tool choice', () => {
    for (const toolChoice of ['auto', 'required', { name: 'read_file' }] as const) {
      const body = buildOllamaBody(contextWith({ tools: [READ_FILE_TOOL, LIST_DIR_TOOL], toolChoice }));
      expect(body['tools']).toEqual([
        {
          type: 'function',
          function: {
            name: 'read_file',
            description: 'Read a file from the workspace.',
            parameters: READ_FILE_TOOL.parameters,
          },
        },
        {
          type: 'function',
          function: { name: 'list_dir', description: 'List a directory.', parameters: LIST_DIR_TOOL.parameters },
        },
      ]);
      expect(Object.keys(body)).toEqual(['model', 'messages', 'tools', 'stream', 'options']);
    }
  });
});

describe('buildOllamaBody: a tool loop', () => {
  it('calls go back with object arguments and the thinking kept for replay; results name their tool and call', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'Read a.' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_ab12cd34', name: 'read_file', arguments: '{"path":"a"}' },
          { id: 'call_x', name: 'read_file', arguments: '[1,2]' },
        ],
        replay: { dialect: 'ollama-chat', items: [{ thinking: 'Need the file.' }] },
      },
      { role: 'tool', tool_call_id: 'call_ab12cd34', name: 'read_file', content: 'A' },
      { role: 'tool', tool_call_id: 'call_x', name: 'read_file', content: 'invalid arguments' },
      { role: 'assistant', content: 'Done.' },
    ];
    const body = buildOllamaBody(contextWith({ messages, tools: [READ_FILE_TOOL], toolChoice: 'auto' }));
    expect(body['messages']).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Read a.' },
      {
        role: 'assistant',
        content: '',
        thinking: 'Need the file.',
        tool_calls: [
          { id: 'call_ab12cd34', function: { name: 'read_file', arguments: { path: 'a' } } },
          { id: 'call_x', function: { name: 'read_file', arguments: {} } },
        ],
      },
      { role: 'tool', content: 'A', tool_name: 'read_file', tool_call_id: 'call_ab12cd34' },
      { role: 'tool', content: 'invalid arguments', tool_name: 'read_file', tool_call_id: 'call_x' },
      { role: 'assistant', content: 'Done.' },
    ]);
    expectExactBody(body, body);
  });
});
