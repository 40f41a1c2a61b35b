import { describe, expect, it } from 'vitest';
import { describeResponsesBody } from './responses-describe-body.js';

describe('describeResponsesBody', () => {
  it('the system region is the instructions value; no input item is a system item', () => {
    const layout = describeResponsesBody({
      model: 'm',
      instructions: 'base prompt',
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'not counted as system' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      ],
    });
    expect(layout.systemValues).toEqual(['base prompt']);
    expect(layout.systemItemIndexes).toEqual([]);
    expect(layout.itemsKey).toBe('input');
  });

  it('no instructions key: an empty system region', () => {
    expect(describeResponsesBody({ model: 'm', input: [] }).systemValues).toEqual([]);
  });

  it('function_call_output items are the tool results; function_call items are not', () => {
    const layout = describeResponsesBody({
      model: 'm',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'read both' }] },
        { type: 'function_call', call_id: 'a', name: 'read_file', arguments: '{}' },
        { type: 'function_call_output', call_id: 'a', output: 'A' },
        { type: 'function_call', call_id: 'b', name: 'read_file', arguments: '{}' },
        { type: 'function_call_output', call_id: 'b', output: 'B' },
      ],
    });
    expect(layout.toolResultItemIndexes).toEqual([2, 4]);
  });

  it('collects input_image and input_file parts from item content, in body order', () => {
    const image = { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' };
    const file = { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,AAAA' };
    const urlImage = { type: 'input_image', image_url: 'https://example.invalid/b.png' };
    const layout = describeResponsesBody({
      model: 'm',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'look' }, image, file] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'seen' }] },
        { role: 'user', content: [urlImage] },
        { type: 'message', role: 'user', content: 'plain string content' },
      ],
    });
    expect(layout.attachmentParts).toEqual([image, file, urlImage]);
  });

  it('odd items contribute nothing', () => {
    const layout = describeResponsesBody({
      model: 'm',
      input: [null, 'function_call_output', 4, { type: 'message', content: [null, 'input_image'] }],
    });
    expect(layout.toolResultItemIndexes).toEqual([]);
    expect(layout.attachmentParts).toEqual([]);
  });

  it('a body without input (or a string input) has no items key, empty regions and no wire facts', () => {
    const empty = {
      systemValues: [],
      itemsKey: null,
      systemItemIndexes: [],
      toolResultItemIndexes: [],
      attachmentParts: [],
      toolsKey: null,
      toolChoice: null,
      streamField: null,
      reasoning: {
        controlKeys: ['reasoning', 'include'],
        disclosureKeys: ['include'],
        effortPaths: ['reasoning_effort', 'reasoning.effort', 'include.effort'],
        budgetPaths: ['reasoning.budget_tokens', 'include.budget_tokens'],
      },
    };
    expect(describeResponsesBody({ model: 'm' })).toEqual(empty);
    expect(describeResponsesBody({ model: 'm', input: 'hi' })).toEqual(empty);
  });

  it('lists the reasoning control keys in report order; include only discloses', () => {
    const { reasoning } = describeResponsesBody({ model: 'm', input: [] });
    expect(reasoning.controlKeys).toEqual(['reasoning', 'include']);
    expect(reasoning.disclosureKeys).toEqual(['include']);
  });

  it('reports the tools key when the body declares tools', () => {
    expect(describeResponsesBody({ model: 'm', input: [], tools: [] }).toolsKey).toBe('tools');
    expect(describeResponsesBody({ model: 'm', input: [] }).toolsKey).toBeNull();
  });

  it('reads tool_choice: a string is its kind; a named choice puts the name beside `type`', () => {
    expect(describeResponsesBody({ tool_choice: 'auto' }).toolChoice).toEqual({ kind: 'auto', name: null });
    expect(describeResponsesBody({ tool_choice: { type: 'function', name: 'read_file' } }).toolChoice).toEqual({
      kind: 'function',
      name: 'read_file',
    });
    expect(describeResponsesBody({ tool_choice: { type: 'function', function: { name: 'x' } } }).toolChoice).toEqual({
      kind: 'function',
      name: null,
    });
    expect(describeResponsesBody({}).toolChoice).toBeNull();
  });

  it('streamField: Responses streams on both entry points', () => {
    expect(describeResponsesBody({ stream: true }).streamField).toBe(true);
    expect(describeResponsesBody({}).streamField).toBeNull();
  });
});
