import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../tools/tool-definition.js';
import { checkToolArguments, restoreAbsentOptionals } from './validate-tool-arguments.js';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    start_line: { type: 'integer', minimum: 1 },
    note: { type: ['string', 'null'] },
    nested: { type: 'object', properties: { depth: { type: 'integer' } } },
  },
  required: ['path'],
  additionalProperties: false,
};

describe('checkToolArguments', () => {
  it('accepts valid arguments and an empty text as {}', async () => {
    expect(await checkToolArguments('{"path":"a.txt","start_line":2}', schema)).toEqual({
      ok: true,
      args: { path: 'a.txt', start_line: 2 },
    });
    expect((await checkToolArguments('', { type: 'object' })).ok).toBe(true);
  });

  it.each([
    ['not JSON', '{path:', 'not valid JSON'],
    ['an array', '[1]', 'must be a JSON object'],
    ['a missing required property', '{}', "must have required property 'path'"],
    ['a wrong type', '{"path":3}', '/path must be string'],
    ['an unknown property', '{"path":"a","extra":1}', 'must NOT have additional properties'],
  ])('explains %s so the model can fix it', async (_case, text, words) => {
    const checked = await checkToolArguments(text, schema);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problem).toContain(words);
  });

  it('turns strict-mode nulls back into absent optional keys, at every level', async () => {
    const checked = await checkToolArguments(
      '{"path":"a","start_line":null,"note":null,"nested":{"depth":null}}',
      schema,
    );
    expect(checked).toEqual({ ok: true, args: { path: 'a', note: null, nested: {} } });
  });

  it('a schema naming another draft is still checked', async () => {
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', ...schema };
    expect((await checkToolArguments('{}', draft7)).ok).toBe(false);
  });
});

describe('restoreAbsentOptionals', () => {
  it('keeps a null that is required or that the schema accepts', () => {
    const required: JsonSchema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(restoreAbsentOptionals({ a: null }, required)).toEqual({ a: null });
    const nullable: JsonSchema = {
      type: 'object',
      properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    };
    expect(restoreAbsentOptionals({ a: null }, nullable)).toEqual({ a: null });
  });
});
