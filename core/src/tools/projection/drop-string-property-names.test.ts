import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../canonical/canonical-json.js';
import { SCHEMA_DIALECT_PRESETS } from '../schema-dialects.js';
import type { JsonSchema } from '../tool-definition.js';
import { dropStringPropertyNames } from './drop-string-property-names.js';

// An independent validator: what ajv accepts before and after the rule is the test, not cw's own reading.
const ajv = new Ajv2020({ strict: false, allErrors: false });

// Key schemas the rule must drop (string, with pure annotations) and ones it must keep (they constrain).
const annotations = fc.record(
  {
    description: fc.constantFrom('A key.', ''),
    title: fc.constant('Key'),
    examples: fc.constant<JsonValue>(['PATH', 'HOME']),
    default: fc.constantFrom<JsonValue>('a', 1, null),
    deprecated: fc.boolean(),
    readOnly: fc.boolean(),
    writeOnly: fc.boolean(),
    $comment: fc.constant('from zod'),
  },
  { requiredKeys: [] },
);
const constraint = fc.oneof(
  fc.record({ minLength: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ maxLength: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ pattern: fc.constantFrom('^[a-z]+$', '^x') }),
  fc.record({ enum: fc.constant<JsonValue>(['a', 'bb']) }),
  fc.record({ const: fc.constant('a') }),
);
const keySchema: fc.Arbitrary<JsonValue> = fc.oneof(
  annotations.map((extra) => ({ type: 'string', ...extra })),
  fc.tuple(annotations, constraint).map(([extra, rule]) => ({ type: 'string', ...extra, ...rule })),
  fc.constantFrom<JsonValue>({ type: 'integer' }, { type: 'string', title: 'Key', 'x-vendor': 1 }),
);
const valueSchema = fc.constantFrom<JsonValue>({ type: 'string' }, { type: 'integer' }, {});

// An object node with a key schema, at the root or one level down under `vars`.
const schema: fc.Arbitrary<JsonSchema> = fc
  .tuple(keySchema, valueSchema, fc.boolean())
  .map(([propertyNames, additionalProperties, nested]) => {
    const node = { type: 'object', propertyNames, additionalProperties };
    return (nested ? { type: 'object', properties: { vars: node } } : node) as JsonSchema;
  });

const key = fc.oneof(fc.constantFrom('', 'a', 'bb', 'x1', 'PATH', 'ccc'), fc.string({ maxLength: 4 }));
const value = fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -2, max: 2 }), fc.constant(null));
const record = fc.dictionary(key, value, { maxKeys: 4 });
const instance: fc.Arbitrary<JsonValue> = fc.oneof(
  record,
  record.map((vars) => ({ vars })),
  fc.constantFrom<JsonValue>('text', 3, null, []),
);

describe('drop-string-property-names: a property', () => {
  it('never narrows what validates, and never widens it: ajv gives every instance the same answer', () => {
    fc.assert(
      fc.property(schema, fc.array(instance, { minLength: 1, maxLength: 6 }), (parameters, instances) => {
        const draft = { description: 'A tool.', parameters };
        const projected = dropStringPropertyNames.apply(draft, SCHEMA_DIALECT_PRESETS['mfjs']).parameters;
        const before = ajv.compile(parameters);
        const after = ajv.compile(projected);
        for (const candidate of instances) {
          if (before(candidate)) expect(after(candidate), JSON.stringify({ parameters, candidate })).toBe(true);
          expect(after(candidate)).toBe(before(candidate));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('fires on the annotated string key schema, and only on key schemas of that form', () => {
    fc.assert(
      fc.property(schema, (parameters) => {
        const draft = { description: 'A tool.', parameters };
        const projected = dropStringPropertyNames.apply(draft, SCHEMA_DIALECT_PRESETS['mfjs']);
        const text = JSON.stringify(parameters);
        const node = (
          text.includes('"vars"') ? (parameters['properties'] as Record<string, JsonSchema>)['vars'] : parameters
        ) as JsonSchema;
        const keys = node['propertyNames'] as Record<string, JsonValue>;
        const pureString =
          keys['type'] === 'string' &&
          Object.keys(keys).every((name) =>
            [
              'type',
              'description',
              'title',
              'examples',
              'default',
              'deprecated',
              'readOnly',
              'writeOnly',
              '$comment',
            ].includes(name),
          );
        expect(JSON.stringify(projected.parameters).includes('propertyNames')).toBe(!pureString);
      }),
      { numRuns: 200 },
    );
  });
});
