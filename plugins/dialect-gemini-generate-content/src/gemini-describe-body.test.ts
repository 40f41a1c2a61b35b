import type { WireBody } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { describeGeminiBody } from './gemini-describe-body.js';

const system = { parts: [{ text: 'You are terse.' }] };
const image = { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } };
const loop: WireBody = {
  systemInstruction: system,
  contents: [
    { role: 'user', parts: [{ text: 'What is in this?' }, image] },
    { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { path: 'a' } } }] },
    { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'A' } } }] },
  ],
  tools: [{ functionDeclarations: [{ name: 'read_file', description: 'Read.', parametersJsonSchema: {} }] }],
  toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['read_file'] } },
  generationConfig: { maxOutputTokens: 1024, thinkingConfig: { thinkingLevel: 'HIGH', includeThoughts: true } },
};

describe('describeGeminiBody', () => {
  it('finds the system region, the turns, tool results, attachments, tools and the forced function', () => {
    expect(describeGeminiBody(loop)).toEqual({
      systemValues: [system],
      itemsKey: 'contents',
      systemItemIndexes: [],
      toolResultItemIndexes: [2],
      attachmentParts: [image],
      toolsKey: 'tools',
      toolChoice: { kind: 'ANY', name: 'read_file' },
      streamField: null,
      reasoning: {
        controlKeys: ['generationConfig.thinkingConfig'],
        disclosureKeys: [],
        effortPaths: ['generationConfig.thinkingConfig.thinkingLevel'],
        budgetPaths: ['generationConfig.thinkingConfig.thinkingBudget'],
      },
    });
  });

  it('a plain body: no system, no tools, no choice; several allowed functions name none', () => {
    const layout = describeGeminiBody({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a', 'b'] } },
    });
    expect(layout.systemValues).toEqual([]);
    expect(layout.toolsKey).toBeNull();
    expect(layout.toolChoice).toEqual({ kind: 'ANY', name: null });
    expect(describeGeminiBody({ contents: [] }).toolChoice).toBeNull();
  });

  it('a body without contents has no items key', () => {
    expect(describeGeminiBody({ systemInstruction: system }).itemsKey).toBeNull();
  });
});
