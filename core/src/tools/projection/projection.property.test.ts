import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../canonical/canonical-json.js';
import { SCHEMA_DIALECT_PRESETS, SCHEMA_DIALECTS } from '../schema-dialects.js';
import type { JsonSchema } from '../tool-definition.js';
import { findViolation } from './find-violation.js';
import { projectSchema } from './project-schema.js';

const RUNS = { numRuns: 400 } as const;

// Schemas built from the keywords MCP servers use, nested, in any combination: many are odd, some are
// contradictory, a few are not even valid JSON Schema. Projection must cope with all of them.
const scalarType = fc.constantFrom('string', 'integer', 'number', 'boolean', 'null');
const literal: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom('a', 'b', 'raw'),
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
  fc.constant(null),
);
const name = fc.constantFrom('alpha', 'beta', 'gamma', 'delta');

const { schema } = fc.letrec<{ schema: JsonSchema }>((tie) => {
  const child = tie('schema') as fc.Arbitrary<JsonSchema>;
  const annotations = fc.record(
    {
      description: fc.constantFrom('A value.', ''),
      title: fc.constant('Title'),
      'x-vendor': fc.constant(true),
      default: literal,
    },
    { requiredKeys: [] },
  );
  const typed: fc.Arbitrary<JsonSchema> = fc.oneof(
    fc.record(
      {
        type: fc.constant('string'),
        format: fc.constantFrom('uri', 'email', 'date-time'),
        pattern: fc.constant('^[a-z]+$'),
        minLength: fc.nat(5),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constantFrom('integer', 'number'),
        minimum: fc.integer({ min: -5, max: 0 }),
        exclusiveMaximum: fc.integer({ min: 1, max: 9 }),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.constant('boolean') }),
    fc.record(
      {
        type: fc.constant<JsonValue>(['string', 'null']),
        maxLength: fc.nat(9),
        enum: fc.constant<JsonValue>(['a', 'b', null]),
      },
      { requiredKeys: ['type'] },
    ),
  );
  const literalOnly: fc.Arbitrary<JsonSchema> = fc.oneof(
    literal.map((value) => ({ const: value })),
    fc.array(literal, { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values })),
    fc.constant({}),
  );
  // Mostly sensible leaves, plus the odd contradictory one (a type list next to any literal).
  const odd: fc.Arbitrary<JsonSchema> = fc.record(
    { type: fc.uniqueArray(scalarType, { minLength: 1, maxLength: 3 }), const: literal },
    { requiredKeys: ['type'] },
  );
  const leaf: fc.Arbitrary<JsonSchema> = fc
    .tuple(
      fc.oneof({ arbitrary: typed, weight: 6 }, { arbitrary: literalOnly, weight: 3 }, { arbitrary: odd, weight: 1 }),
      annotations,
    )
    .map(([body, notes]) => ({ ...notes, ...body }));
  const object: fc.Arbitrary<JsonSchema> = fc.record(
    {
      type: fc.constant('object'),
      properties: fc.dictionary(name, child, { maxKeys: 3 }),
      required: fc.uniqueArray(name, { maxLength: 3 }),
      additionalProperties: fc.oneof(fc.boolean(), child),
      dependentRequired: fc.constant({ alpha: ['beta'] }),
      // zod 4's record keys (always true), and one that does constrain.
      propertyNames: fc.constantFrom<JsonValue>(
        { type: 'string' },
        { type: 'string' },
        { type: 'string', minLength: 1 },
      ),
    },
    { requiredKeys: ['type'] },
  );
  // Unions with what generators put beside them: a type, a default, a description (repeated in branches
  // by the leaf annotations above), a bound.
  const union: fc.Arbitrary<JsonSchema> = fc
    .tuple(
      fc.constantFrom('oneOf', 'anyOf', 'allOf'),
      fc.array(child, { minLength: 1, maxLength: 3 }),
      fc.option(scalarType, { nil: undefined }),
      fc.record(
        { description: fc.constant('A union.'), default: literal, title: fc.constant('Union'), maxLength: fc.nat(9) },
        { requiredKeys: [] },
      ),
    )
    .map(([keyword, branches, type, beside]) =>
      type === undefined ? { ...beside, [keyword]: branches } : { ...beside, type, [keyword]: branches },
    );
  const array: fc.Arbitrary<JsonSchema> = fc.oneof(
    child.map((items) => ({ type: 'array', items })),
    fc.array(child, { minLength: 1, maxLength: 2 }).map((items) => ({ type: 'array', items })),
  );
  // References as generators write them: into $defs or definitions, into another property, with
  // annotations or assertions beside them, to the root, and to nothing.
  const reference: fc.Arbitrary<JsonSchema> = fc.constantFrom<JsonSchema>(
    { $ref: '#/$defs/Shared' },
    { $ref: '#/$defs/Shared' },
    { $ref: '#/$defs/Shared', description: 'A shared value.' },
    { $ref: '#/$defs/Shared', default: 'a', title: 'Shared' },
    { $ref: '#/$defs/Shared', type: 'string' },
    { $ref: '#/definitions/Shared' },
    { $ref: '#/definitions/Shared', description: 'A shared value.' },
    { $ref: '#/properties/alpha' },
    { $ref: '#/$defs/Shared/properties/alpha' },
    { $ref: '#' },
    { $ref: '#/$defs/Missing' },
  );
  return {
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: leaf, weight: 4 },
      { arbitrary: object, weight: 2 },
      { arbitrary: union, weight: 2 },
      { arbitrary: array, weight: 1 },
      { arbitrary: reference, weight: 1 },
    ),
  };
});

// Tool parameters are mostly objects (sometimes a union of them, sometimes without `type`), with
// shared definitions now and then; now and then the root is something no route should take.
const objectRoot: fc.Arbitrary<JsonSchema> = fc.record(
  {
    type: fc.constant('object'),
    properties: fc.dictionary(name, schema, { maxKeys: 4 }),
    required: fc.uniqueArray(name, { maxLength: 3 }),
    additionalProperties: fc.boolean(),
    oneOf: fc.array(
      fc.record(
        { properties: fc.dictionary(name, schema, { maxKeys: 2 }), required: fc.uniqueArray(name, { maxLength: 2 }) },
        { requiredKeys: [] },
      ),
      { minLength: 2, maxLength: 3 },
    ),
  },
  { requiredKeys: ['properties'] },
);

export const rootForTest: fc.Arbitrary<JsonSchema> = fc
  .tuple(
    fc.oneof({ arbitrary: objectRoot, weight: 5 }, { arbitrary: schema, weight: 1 }),
    fc.option(schema, { nil: undefined }),
    fc.constantFrom('$defs', '$defs', 'definitions'),
  )
  .map(([body, shared, keyword]) => (shared === undefined ? body : { ...body, [keyword]: { Shared: shared } }));

/**
 * A schema's nodes without `propertyNames: {"type": "string"}` (`keys: false`), or every object node
 * with it (`keys: true`): two schemas that accept exactly the same arguments.
 */
function stringKeys(node: JsonValue, keys: boolean): JsonValue {
  if (Array.isArray(node)) return node.map((item) => stringKeys(item, keys));
  if (typeof node !== 'object' || node === null) return node;
  const copy: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'propertyNames' && isDeepStrictEqual(value, { type: 'string' })) continue;
    copy[key] = key === 'enum' || key === 'const' || key === 'default' ? value : stringKeys(value, keys);
  }
  if (keys && copy['type'] === 'object' && !('propertyNames' in copy)) copy['propertyNames'] = { type: 'string' };
  return copy;
}

describe('projection properties', () => {
  for (const dialect of SCHEMA_DIALECTS) {
    const rules = SCHEMA_DIALECT_PRESETS[dialect];
    it(`${dialect}: never throws, is deterministic, sends only what the route accepts, and is idempotent`, () => {
      fc.assert(
        fc.property(rootForTest, (parameters) => {
          const draft = { description: 'A tool.', parameters };
          const snapshot = JSON.stringify(parameters);
          const first = projectSchema(draft, rules);
          expect(JSON.stringify(parameters)).toBe(snapshot); // the catalog is never mutated
          expect(projectSchema(draft, rules)).toEqual(first);
          if (first.outcome === 'omitted') return;
          const checkedAgainst = first.strict
            ? rules
            : { ...SCHEMA_DIALECT_PRESETS['loose'], name_pattern: rules.name_pattern };
          expect(findViolation(first.draft.parameters, checkedAgainst)).toBeNull();
          const again = projectSchema(first.draft, rules);
          expect(again.outcome).not.toBe('omitted');
          if (again.outcome === 'omitted') return;
          expect(again.draft).toEqual(first.draft);
          expect(again.strict).toBe(first.strict);
          if (again.outcome === 'relaxed') expect(again.rules).toEqual(['strict-off']);
        }),
        RUNS,
      );
    });

    it(`${dialect}: propertyNames {"type": "string"} changes no outcome: never an omission, never strict-off`, () => {
      fc.assert(
        fc.property(rootForTest, (parameters) => {
          const without = stringKeys(parameters, false) as JsonSchema;
          const plain = projectSchema({ description: 'A tool.', parameters: without }, rules);
          const keyed = projectSchema(
            { description: 'A tool.', parameters: stringKeys(without, true) as JsonSchema },
            rules,
          );
          expect(keyed.outcome === 'omitted').toBe(plain.outcome === 'omitted');
          if (keyed.outcome === 'omitted' || plain.outcome === 'omitted') {
            expect(keyed).toEqual(plain);
            return;
          }
          expect(keyed.draft).toEqual(plain.draft);
          expect(keyed.strict).toBe(plain.strict);
          const rulesOf = (result: typeof plain): readonly string[] =>
            result.outcome === 'relaxed' ? result.rules : [];
          expect(rulesOf(keyed).filter((code) => code !== 'drop-string-property-names')).toEqual(rulesOf(plain));
        }),
        RUNS,
      );
    });
  }
});
