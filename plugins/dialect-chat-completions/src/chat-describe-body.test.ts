import { describe, expect, it } from 'vitest';
import { describeChatBody } from './chat-describe-body.js';

const REASONING_KEYS = [
  'reasoning_effort',
  'thinking',
  'think',
  'reasoning',
  'reasoning_split',
  'chat_template_kwargs',
];

describe('describeChatBody', () => {
  it('finds system items at every position and reports them, in order, as the system region', () => {
    const first = { role: 'system', content: 'base prompt' };
    const middle = { role: 'system', content: 'mid-conversation note' };
    const last = { role: 'system', content: [{ type: 'text', text: 'closing note' }] };
    const layout = describeChatBody({
      model: 'm',
      messages: [first, { role: 'user', content: 'hi' }, middle, { role: 'assistant', content: 'hello' }, last],
    });
    expect(layout.itemsKey).toBe('messages');
    expect(layout.systemItemIndexes).toEqual([0, 2, 4]);
    expect(layout.systemValues).toEqual([first, middle, last]);
    expect(layout.toolResultItemIndexes).toEqual([]);
    expect(layout.attachmentParts).toEqual([]);
  });

  it('marks role "tool" items as tool results, and nothing else', () => {
    const layout = describeChatBody({
      model: 'm',
      messages: [
        { role: 'user', content: 'read both' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'a', content: 'one' },
        { role: 'tool', tool_call_id: 'b', content: 'two' },
        { role: 'user', content: 'thanks' },
      ],
    });
    expect(layout.toolResultItemIndexes).toEqual([2, 3]);
    expect(layout.systemItemIndexes).toEqual([]);
    expect(layout.systemValues).toEqual([]);
  });

  it('collects image_url parts, parts with an image_url key, and file parts, in body order', () => {
    const typedImage = { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } };
    const untypedImage = { image_url: { url: 'https://example.invalid/a.png' } };
    const file = { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,AAAA' } };
    const layout = describeChatBody({
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'look' }, typedImage] },
        {
          role: 'user',
          content: [untypedImage, { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }, file],
        },
      ],
    });
    expect(layout.attachmentParts).toEqual([typedImage, untypedImage, file]);
  });

  it('a body without messages has no items key, empty regions and no wire facts', () => {
    expect(describeChatBody({ model: 'm' })).toEqual({
      systemValues: [],
      itemsKey: null,
      systemItemIndexes: [],
      toolResultItemIndexes: [],
      attachmentParts: [],
      toolsKey: null,
      toolChoice: null,
      streamField: null,
      reasoning: {
        controlKeys: REASONING_KEYS,
        disclosureKeys: [],
        effortPaths: ['reasoning_effort', ...REASONING_KEYS.map((key) => `${key}.effort`)],
        budgetPaths: REASONING_KEYS.map((key) => `${key}.budget_tokens`),
      },
    });
  });

  it('a messages key that is not an array counts as no items', () => {
    const layout = describeChatBody({ model: 'm', messages: { role: 'user', content: 'hi' } });
    expect(layout.itemsKey).toBeNull();
    expect(layout.systemItemIndexes).toEqual([]);
  });

  it('skips items that are not objects but keeps their positions in the indexes', () => {
    const layout = describeChatBody({
      model: 'm',
      messages: [null, 'text', { role: 'system', content: 's' }, { role: 'tool', tool_call_id: 'x', content: 'r' }],
    });
    expect(layout.systemItemIndexes).toEqual([2]);
    expect(layout.toolResultItemIndexes).toEqual([3]);
  });

  it('lists the reasoning control keys in report order; none only discloses', () => {
    const { reasoning } = describeChatBody({ model: 'm', messages: [] });
    expect(reasoning.controlKeys).toEqual(REASONING_KEYS);
    expect(reasoning.disclosureKeys).toEqual([]);
    expect(reasoning.effortPaths.slice(0, 3)).toEqual([
      'reasoning_effort',
      'reasoning_effort.effort',
      'thinking.effort',
    ]);
    expect(reasoning.budgetPaths[1]).toBe('thinking.budget_tokens');
  });

  it('reports the tools key when the body declares tools', () => {
    expect(describeChatBody({ model: 'm', messages: [], tools: [] }).toolsKey).toBe('tools');
    expect(describeChatBody({ model: 'm', messages: [] }).toolsKey).toBeNull();
  });

  it('reads tool_choice: a string is its kind; a named choice nests the name under `function`', () => {
    expect(describeChatBody({ tool_choice: 'required' }).toolChoice).toEqual({ kind: 'required', name: null });
    expect(describeChatBody({ tool_choice: { type: 'function', function: { name: 'read_file' } } }).toolChoice).toEqual(
      { kind: 'function', name: 'read_file' },
    );
    expect(describeChatBody({ tool_choice: { type: 'function', name: 'read_file' } }).toolChoice).toEqual({
      kind: 'function',
      name: null,
    });
    expect(describeChatBody({ tool_choice: { function: {} } }).toolChoice).toEqual({ kind: 'object', name: null });
    expect(describeChatBody({ tool_choice: 1 }).toolChoice).toEqual({ kind: 'number', name: null });
    expect(describeChatBody({ tool_choice: null }).toolChoice).toBeNull();
  });

  it('streamField is the body stream flag: true when streaming, null when the key is absent', () => {
    expect(describeChatBody({ stream: true }).streamField).toBe(true);
    expect(describeChatBody({ stream: false }).streamField).toBe(false);
    expect(describeChatBody({}).streamField).toBeNull();
    expect(describeChatBody({ stream: 'true' }).streamField).toBeNull();
  });
});
