import { describe, expect, it } from 'vitest';
import { describeAnthropicBody } from './anthropic-describe-body.js';

describe('describeAnthropicBody', () => {
  it('the system region is the top-level system value, string or block array; no item is a system item', () => {
    const blocks = [{ type: 'text', text: 'base prompt', cache_control: { type: 'ephemeral' } }];
    expect(describeAnthropicBody({ model: 'm', system: 'base prompt', messages: [] }).systemValues).toEqual([
      'base prompt',
    ]);
    const layout = describeAnthropicBody({ model: 'm', system: blocks, messages: [{ role: 'user', content: 'hi' }] });
    expect(layout.systemValues).toEqual([blocks]);
    expect(layout.systemItemIndexes).toEqual([]);
    expect(layout.itemsKey).toBe('messages');
  });

  it('no system key: an empty system region', () => {
    expect(describeAnthropicBody({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).systemValues).toEqual([]);
  });

  it('a user turn is a tool-result item when any of its blocks is a tool_result', () => {
    const layout = describeAnthropicBody({
      model: 'm',
      messages: [
        { role: 'user', content: 'read it' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' },
            { type: 'text', text: 'and now?' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
        { role: 'user', content: [{ type: 'text', text: 'tool_result' }] },
      ],
    });
    expect(layout.toolResultItemIndexes).toEqual([2]);
  });

  it('collects image and document blocks from every turn, in body order', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } };
    const document = { type: 'document', source: { type: 'url', url: 'https://example.invalid/a.pdf' } };
    const urlImage = { type: 'image', source: { type: 'url', url: 'https://example.invalid/b.png' } };
    const layout = describeAnthropicBody({
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'look' }, image, document] },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [urlImage, { type: 'tool_result', tool_use_id: 'x', content: 'r' }] },
      ],
    });
    expect(layout.attachmentParts).toEqual([image, document, urlImage]);
    expect(layout.toolResultItemIndexes).toEqual([2]);
  });

  it('string content and odd items contribute nothing', () => {
    const layout = describeAnthropicBody({
      model: 'm',
      messages: [
        { role: 'user', content: 'image' },
        null,
        3,
        { role: 'user' },
        { role: 'user', content: [null, 'image'] },
      ],
    });
    expect(layout.toolResultItemIndexes).toEqual([]);
    expect(layout.attachmentParts).toEqual([]);
  });

  it('a body without messages has no items key, empty regions and no wire facts', () => {
    expect(describeAnthropicBody({ model: 'm', max_tokens: 1 })).toEqual({
      systemValues: [],
      itemsKey: null,
      systemItemIndexes: [],
      toolResultItemIndexes: [],
      attachmentParts: [],
      toolsKey: null,
      toolChoice: null,
      streamField: null,
      reasoning: {
        controlKeys: ['thinking', 'output_config'],
        disclosureKeys: [],
        effortPaths: ['reasoning_effort', 'thinking.effort', 'output_config.effort'],
        budgetPaths: ['thinking.budget_tokens', 'output_config.budget_tokens'],
      },
      cacheBreakpoints: [],
    });
    expect(describeAnthropicBody({ model: 'm', messages: 'hi' }).itemsKey).toBeNull();
  });

  it('lists the reasoning control keys in report order', () => {
    expect(describeAnthropicBody({ model: 'm', messages: [] }).reasoning.controlKeys).toEqual([
      'thinking',
      'output_config',
    ]);
  });

  it('reports the tools key when the body declares tools', () => {
    expect(describeAnthropicBody({ model: 'm', messages: [], tools: [] }).toolsKey).toBe('tools');
    expect(describeAnthropicBody({ model: 'm', messages: [] }).toolsKey).toBeNull();
  });

  it('reads tool_choice: the kind from `type`, a forced tool name beside it', () => {
    expect(describeAnthropicBody({ tool_choice: { type: 'auto' } }).toolChoice).toEqual({ kind: 'auto', name: null });
    expect(describeAnthropicBody({ tool_choice: { type: 'any' } }).toolChoice).toEqual({ kind: 'any', name: null });
    expect(describeAnthropicBody({ tool_choice: { type: 'tool', name: 'read_file' } }).toolChoice).toEqual({
      kind: 'tool',
      name: 'read_file',
    });
    expect(describeAnthropicBody({}).toolChoice).toBeNull();
  });

  it('streamField: Messages sends stream on both entry points', () => {
    expect(describeAnthropicBody({ stream: true }).streamField).toBe(true);
    expect(describeAnthropicBody({ stream: false }).streamField).toBe(false);
    expect(describeAnthropicBody({}).streamField).toBeNull();
  });
});
