import type { BuildContext, CapabilityRow, ConversationMessage, WireBody } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import {
  LIST_DIR_TOOL,
  READ_FILE_TOOL,
  buildContext,
  expectExactBody as expectBody,
  rowWithCap as rowFor,
} from '../../../test/support/build-context.js';
import { validateWireBody } from '../../../test/support/wire-schemas.js';
import { buildGeminiBody } from './gemini-build-body.js';

const CAP = 'generationConfig.maxOutputTokens';
const rowWithCap = (field: CapabilityRow['output_cap']['field']): CapabilityRow =>
  rowFor('gemini-generate-content', field, 8192);
const contextWith = (overrides: Partial<BuildContext> = {}): BuildContext =>
  buildContext(rowWithCap(CAP), 2048, overrides);
const expectExactBody = (body: WireBody, expected: WireBody): void =>
  expectBody('gemini-generate-content', body, expected);
// Base64, as the API's `bytes` fields are.
const SIG_CALL = 'c2lnbmVkLWNhbGw=';
const SIG_TEXT = 'c2lnbmVkLXRleHQ=';

describe('buildGeminiBody: plain turn', () => {
  it('systemInstruction, contents, generationConfig with the cap; no model, no stream field, on both entry points', () => {
    for (const entrypoint of ['streaming', 'blocking'] as const) {
      const body = buildGeminiBody(contextWith({ entrypoint }));
      expectExactBody(body, {
        systemInstruction: { parts: [{ text: 'You are terse.' }] },
        contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }],
        generationConfig: { maxOutputTokens: 2048 },
      });
    }
  });

  it('an empty system prompt leaves systemInstruction out; a row without a cap field sends no cap', () => {
    const body = buildGeminiBody(contextWith({ system: '', row: rowWithCap(null) }));
    expectExactBody(body, { contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }] });
  });
});

describe('buildGeminiBody: tools and the calling mode', () => {
  it('declares the projected tools with parametersJsonSchema, as authored', () => {
    const body = buildGeminiBody(contextWith({ tools: [READ_FILE_TOOL, LIST_DIR_TOOL], toolChoice: 'auto' }));
    expect(body['tools']).toEqual([
      {
        functionDeclarations: [
          {
            name: 'read_file',
            description: 'Read a file from the workspace.',
            parametersJsonSchema: READ_FILE_TOOL.parameters,
          },
          { name: 'list_dir', description: 'List a directory.', parametersJsonSchema: LIST_DIR_TOOL.parameters },
        ],
      },
    ]);
    expect(body['toolConfig']).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(Object.keys(body)).toEqual(['systemInstruction', 'contents', 'tools', 'toolConfig', 'generationConfig']);
    expect(validateWireBody('gemini-generate-content', body).errors).toEqual([]);
  });

  it.each([
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
    [{ name: 'read_file' }, { mode: 'ANY', allowedFunctionNames: ['read_file'] }],
  ] as const)('tool choice %j is functionCallingConfig %j', (toolChoice, config) => {
    const body = buildGeminiBody(contextWith({ tools: [READ_FILE_TOOL], toolChoice }));
    expect(body['toolConfig']).toEqual({ functionCallingConfig: config });
    expect(validateWireBody('gemini-generate-content', body).errors).toEqual([]);
  });

  it('no tools and no choice: neither key', () => {
    const body = buildGeminiBody(contextWith());
    expect('tools' in body || 'toolConfig' in body).toBe(false);
  });
});

describe('buildGeminiBody: a tool loop', () => {
  const history: ConversationMessage[] = [
    { role: 'user', content: 'Read a and b.' },
    {
      role: 'assistant',
      content: 'Reading both.',
      tool_calls: [
        { id: 'cwgem_0123456789abcdef01234567', name: 'read_file', arguments: '{"path":"a"}' },
        { id: 'fc-provider-id', name: 'read_file', arguments: '{"path":"b"}' },
      ],
      replay: {
        dialect: 'gemini-generate-content',
        items: [{ on: 'call', index: 0, thoughtSignature: SIG_CALL }],
      },
    },
    { role: 'tool', tool_call_id: 'cwgem_0123456789abcdef01234567', name: 'read_file', content: 'A' },
    { role: 'tool', tool_call_id: 'fc-provider-id', name: 'read_file', content: 'B' },
  ];

  it('model parts carry text then calls, the signature back on its call; results share one user content', () => {
    const body = buildGeminiBody(contextWith({ messages: history, tools: [READ_FILE_TOOL], toolChoice: 'auto' }));
    expect(body['contents']).toEqual([
      { role: 'user', parts: [{ text: 'Read a and b.' }] },
      {
        role: 'model',
        parts: [
          { text: 'Reading both.' },
          { functionCall: { name: 'read_file', args: { path: 'a' } }, thoughtSignature: SIG_CALL },
          { functionCall: { id: 'fc-provider-id', name: 'read_file', args: { path: 'b' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'read_file', response: { output: 'A' } } },
          { functionResponse: { id: 'fc-provider-id', name: 'read_file', response: { output: 'B' } } },
        ],
      },
    ]);
    expect(validateWireBody('gemini-generate-content', body).errors).toEqual([]);
  });

  it('a signature on the text comes back on it; a reply that only carried one sends an empty text part', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: '',
        replay: { dialect: 'gemini-generate-content', items: [{ on: 'text', thoughtSignature: SIG_TEXT }] },
      },
      { role: 'user', content: 'again' },
      {
        role: 'assistant',
        content: 'Hello.',
        replay: { dialect: 'gemini-generate-content', items: [{ on: 'text', thoughtSignature: SIG_TEXT }] },
      },
      { role: 'user', content: 'bye' },
    ];
    const contents = buildGeminiBody(contextWith({ messages }))['contents'];
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ text: '', thoughtSignature: SIG_TEXT }] },
      { role: 'user', parts: [{ text: 'again' }] },
      { role: 'model', parts: [{ text: 'Hello.', thoughtSignature: SIG_TEXT }] },
      { role: 'user', parts: [{ text: 'bye' }] },
    ]);
  });

  it('an empty reply with nothing to replay is left out, and the user turns around it merge', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'again' },
    ];
    expect(buildGeminiBody(contextWith({ messages }))['contents']).toEqual([
      { role: 'user', parts: [{ text: 'hi' }, { text: 'again' }] },
    ]);
  });

  it('arguments that are not a JSON object go back as {}; replay items of another shape are ignored', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'x1', name: 'read_file', arguments: 'not json' }],
        replay: {
          dialect: 'gemini-generate-content',
          items: ['junk', { on: 'call', index: -1, thoughtSignature: 'x' }],
        },
      },
      { role: 'tool', tool_call_id: 'x1', name: 'read_file', content: 'invalid arguments' },
    ];
    const contents = buildGeminiBody(contextWith({ messages }))['contents'] as { parts: unknown[] }[];
    expect(contents[1]?.parts).toEqual([{ functionCall: { id: 'x1', name: 'read_file', args: {} } }]);
  });
});
