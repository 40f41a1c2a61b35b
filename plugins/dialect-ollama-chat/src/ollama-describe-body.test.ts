import type { WireBody } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { describeOllamaBody } from './ollama-describe-body.js';

describe('describeOllamaBody', () => {
  it('the system message is the system region, tool messages are results, think is the control', () => {
    const body: WireBody = {
      model: 'qwen3',
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'Read a.', images: ['iVBORw0KGgo='] },
        { role: 'assistant', content: '', tool_calls: [{ function: { name: 'read_file', arguments: {} } }] },
        { role: 'tool', content: 'A', tool_name: 'read_file' },
      ],
      tools: [{ type: 'function', function: { name: 'read_file', parameters: {} } }],
      stream: false,
      options: { num_predict: 10, num_ctx: 100 },
      think: 'high',
    };
    expect(describeOllamaBody(body)).toEqual({
      systemValues: [{ role: 'system', content: 'Be terse.' }],
      itemsKey: 'messages',
      systemItemIndexes: [0],
      toolResultItemIndexes: [3],
      attachmentParts: [],
      toolsKey: 'tools',
      toolChoice: null,
      streamField: false,
      reasoning: { controlKeys: ['think'], disclosureKeys: [], effortPaths: ['think'], budgetPaths: [] },
    });
  });
});
