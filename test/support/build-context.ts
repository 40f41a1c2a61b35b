// Shared fixtures for the dialect body-builder tests: a hand-made BuildContext and two tools.
import { expect } from 'vitest';
import type { BuildContext, CapabilityRow, WireBody, WireToolSpec } from '@cw/core/plugin';
import { validateWireBody, type WireDialect } from './wire-schemas.js';

/** A row with only the fields body builders read; the rest of a capability row does not matter to them. */
export function rowWithCap(
  dialect: WireDialect,
  field: CapabilityRow['output_cap']['field'],
  defaultTokens = 4096,
): CapabilityRow {
  return { dialect, output_cap: { field, default_tokens: defaultTokens } } as unknown as CapabilityRow;
}

/** A strict tool with a closed object schema. */
export const READ_FILE_TOOL: WireToolSpec = {
  name: 'read_file',
  description: 'Read a file from the workspace.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
    additionalProperties: false,
  },
  strict: true,
};

/** A loose tool with an open object schema. */
export const LIST_DIR_TOOL: WireToolSpec = {
  name: 'list_dir',
  description: 'List a directory.',
  parameters: { type: 'object', properties: { dir: { type: 'string' } } },
  strict: false,
};

/** A plain streaming turn (system + one user message) on `row`, with any field overridden. */
export function buildContext(
  row: CapabilityRow,
  outputCapTokens: number,
  overrides: Partial<BuildContext> = {},
): BuildContext {
  return {
    row,
    wireModel: 'test-model',
    entrypoint: 'streaming',
    system: 'You are terse.',
    messages: [{ role: 'user', content: 'Say hello.' }],
    tools: [],
    toolChoice: null,
    outputCapTokens,
    reasoning: null,
    ...overrides,
  };
}

/** Equal values, the same key order at every depth, and a body the dialect's published schema accepts. */
export function expectExactBody(dialect: WireDialect, body: WireBody, expected: WireBody): void {
  expect(body).toEqual(expected);
  expect(JSON.stringify(body)).toBe(JSON.stringify(expected));
  expect(validateWireBody(dialect, body).errors).toEqual([]);
}
