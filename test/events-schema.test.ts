// docs/events.schema.json is generated from the event lines' description in the core
// (core/src/agent-api/event-lines-schema.ts) by `npm run build` (scripts/generate-events-schema.mjs):
// the committed file must be exactly what the description generates, so a changed event type that
// was not regenerated fails here.
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { eventLineSchema, eventsJsonSchemaText } from '../core/src/agent-api/event-lines-schema.js';

const committed = await readFile(new URL('../docs/events.schema.json', import.meta.url), 'utf8');

describe('docs/events.schema.json', () => {
  it('is exactly what the event lines description generates', () => {
    expect(committed).toBe(eventsJsonSchemaText());
  });

  it('names one line per type, and the file and the description agree on a line and on a wrong one', () => {
    const schema = JSON.parse(committed) as { oneOf: { $ref: string }[] };
    expect(schema.oneOf.map((entry) => entry.$ref.replace('#/$defs/', ''))).toEqual([
      'turn-start',
      'notice',
      'projection-warning',
      'step-start',
      'text-delta',
      'reasoning-delta',
      'retry',
      'tool-call',
      'approval',
      'tool-result',
      'step-finish',
      'result',
      'error',
    ]);
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    const progress = {
      type: 'notice',
      kind: 'progress',
      message: 'read_file progress 1/2',
      fields: { tool: 'read_file', text: '1/2' },
    };
    const cancelled = {
      type: 'tool-result',
      id: 'c1',
      name: 'shell',
      status: 'cancelled',
      result_bytes: 3,
      duration_ms: 1,
    };
    const extra = { type: 'text-delta', text: 'hi', secret: 'x' };
    for (const line of [progress, cancelled]) {
      expect(validate(line), JSON.stringify(validate.errors)).toBe(true);
      expect(eventLineSchema().safeParse(line).success).toBe(true);
    }
    expect(validate(extra)).toBe(false);
    expect(eventLineSchema().safeParse(extra).success).toBe(false);
  });
});
