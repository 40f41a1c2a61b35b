import { describe, expect, it } from 'vitest';
import { SCHEMA_DIALECT_PRESETS, withSchemaDialectDefaults } from '../schema-dialects.js';
import { type ToolSchemaRules, toolSchemaRulesInputSchema } from '../tool-schema-rules.js';
import type { JsonSchema } from '../tool-definition.js';
import { CONDITIONAL_NOTE } from './drop-conditional-requirements.js';
import { RELAXATION_CODES } from './projection-codes.js';
import type { ToolDraft } from './projection-rule.js';
import { PROJECTION_RULES, projectSchema } from './project-schema.js';

const MFJS = SCHEMA_DIALECT_PRESETS.mfjs;
const STRICT = SCHEMA_DIALECT_PRESETS['strict'];
const LOOSE = SCHEMA_DIALECT_PRESETS['loose'];
const ANTHROPIC = SCHEMA_DIALECT_PRESETS['draft-2020-object'];

function draft(parameters: JsonSchema, description = 'A tool.'): ToolDraft {
  return { description, parameters };
}

function rule(code: string) {
  const found = PROJECTION_RULES.find((candidate) => candidate.code === code);
  if (!found) throw new Error(`no rule ${code}`);
  return found;
}

describe('the rule table', () => {
  it('runs every rule once, in the documented code order; strict-off is the engine fallback, not a rule', () => {
    expect(PROJECTION_RULES.map((entry) => entry.code)).toEqual(
      RELAXATION_CODES.filter((code) => code !== 'strict-off'),
    );
  });

  it('every rule hands back the very same draft on a route that accepts the schema as authored', () => {
    const plain = draft({
      type: 'object',
      properties: { path: { type: 'string', description: 'A path.' } },
      required: ['path'],
      additionalProperties: false,
    });
    for (const dialect of Object.values(SCHEMA_DIALECT_PRESETS)) {
      for (const entry of PROJECTION_RULES)
        expect(entry.apply(plain, dialect), `${entry.code} on ${dialect.dialect}`).toBe(plain);
    }
  });

  it('a row may list only keywords cw knows as the ones beside a union or reference (views print the list)', () => {
    expect(
      toolSchemaRulesInputSchema.safeParse({ dialect: 'mfjs', keywords_beside_union_or_ref: ['description'] }).success,
    ).toBe(true);
    expect(
      toolSchemaRulesInputSchema.safeParse({ dialect: 'mfjs', keywords_beside_union_or_ref: ['x-token-abc'] }).success,
    ).toBe(false);
  });

  it('a row naming an unknown schema dialect starts from the loose preset and keeps its own overrides', () => {
    const rules = withSchemaDialectDefaults({ dialect: 'gateway-subset', deny_keywords: ['pattern'], max_tools: 3 });
    expect(rules).toEqual({ ...LOOSE, dialect: 'gateway-subset', deny_keywords: ['pattern'], max_tools: 3 });
  });
});

describe('relaxation rules', () => {
  it('flatten-root-union merges branch properties and states the choice in the description', () => {
    const result = rule('flatten-root-union').apply(
      draft({
        type: 'object',
        oneOf: [
          { properties: { path: { type: 'string' } }, required: ['path'] },
          { properties: { url: { type: 'string' }, path: { type: 'integer' } }, required: ['url'] },
        ],
      }),
      ANTHROPIC,
    );
    expect(result.parameters).toEqual({
      type: 'object',
      properties: { path: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, url: { type: 'string' } },
    });
    expect(result.description).toBe(
      'A tool.\n\nExactly one of these parameter groups must be provided: `path` | `url`.',
    );
  });

  it('flatten-root-union unites allOf requirements without a note, and refuses a non-object branch', () => {
    const merged = rule('flatten-root-union').apply(
      draft({
        type: 'object',
        allOf: [
          { properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'string' } }, required: ['b'] },
        ],
      }),
      ANTHROPIC,
    );
    expect(merged.parameters).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      required: ['a', 'b'],
    });
    expect(merged.description).toBe('A tool.');
    const mixed = draft({ type: 'object', anyOf: [{ properties: { a: { type: 'string' } } }, { type: 'string' }] });
    expect(rule('flatten-root-union').apply(mixed, ANTHROPIC)).toBe(mixed);
  });

  it('inline-refs expands references and drops the definitions, and leaves a recursive schema alone', () => {
    const noRefs: ToolSchemaRules = { ...LOOSE, allows_ref: false };
    const result = rule('inline-refs').apply(
      draft({
        type: 'object',
        properties: { unit: { $ref: '#/definitions/Unit', description: 'Which unit' } },
        definitions: { Unit: { type: 'string', enum: ['c', 'f'] } },
      }),
      noRefs,
    );
    expect(result.parameters).toEqual({
      type: 'object',
      properties: { unit: { description: 'Which unit', type: 'string', enum: ['c', 'f'] } },
    });
    const recursive = draft({ type: 'object', properties: { node: { $ref: '#' } } });
    expect(rule('inline-refs').apply(recursive, noRefs)).toBe(recursive);
  });

  it('merge-all-of folds a described single reference into one node', () => {
    const result = rule('merge-all-of').apply(
      draft({ type: 'object', properties: { f: { description: 'Filter', allOf: [{ $ref: '#/$defs/F' }] } } }),
      MFJS,
    );
    expect(result.parameters).toEqual({
      type: 'object',
      properties: { f: { description: 'Filter', $ref: '#/$defs/F' } },
    });
  });

  it('one-of-to-any-of and const-to-enum respell without changing what validates', () => {
    const spelled = rule('one-of-to-any-of').apply(
      draft({ type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } }),
      MFJS,
    );
    expect(spelled.parameters).toEqual({
      type: 'object',
      properties: { v: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
    });
    const constant = rule('const-to-enum').apply(
      draft({ type: 'object', properties: { mode: { const: 'raw', description: 'Mode' } } }),
      MFJS,
    );
    expect(constant.parameters).toEqual({
      type: 'object',
      properties: { mode: { enum: ['raw'], description: 'Mode' } },
    });
  });

  it('infer-literal-type types an enum whose values share a type, and not a mixed one', () => {
    const typed = rule('infer-literal-type').apply(
      draft({ type: 'object', properties: { n: { enum: [1, 2.5] }, m: { enum: ['a', 1] } } }),
      MFJS,
    );
    expect(typed.parameters).toEqual({
      type: 'object',
      properties: { n: { type: 'number', enum: [1, 2.5] }, m: { enum: ['a', 1] } },
    });
  });

  it('move-type-into-branches distributes the outer assertions into every branch', () => {
    const result = rule('move-type-into-branches').apply(
      draft({
        type: 'object',
        properties: { id: { type: 'string', description: 'Id', anyOf: [{ maxLength: 8 }, { enum: ['auto'] }] } },
      }),
      MFJS,
    );
    expect(result.parameters).toEqual({
      type: 'object',
      properties: {
        id: {
          description: 'Id',
          anyOf: [
            { maxLength: 8, type: 'string' },
            { enum: ['auto'], type: 'string' },
          ],
        },
      },
    });
  });

  it('type-list-to-any-of splits a type list per type, enum values included', () => {
    const result = rule('type-list-to-any-of').apply(
      draft({
        type: 'object',
        properties: { s: { type: ['string', 'null'], enum: ['a', null], maxLength: 3, title: 'S' } },
      }),
      MFJS,
    );
    expect(result.parameters).toEqual({
      type: 'object',
      properties: {
        s: {
          anyOf: [
            { type: 'string', enum: ['a'], maxLength: 3 },
            { type: 'null', enum: [null] },
          ],
          title: 'S',
        },
      },
    });
  });

  it('tuple-to-prefix-items respells a draft-07 tuple for 2020-12 routes', () => {
    const result = rule('tuple-to-prefix-items').apply(
      draft({
        type: 'object',
        properties: { r: { type: 'array', items: [{ type: 'integer' }], additionalItems: false } },
      }),
      ANTHROPIC,
    );
    expect(result.parameters).toEqual({
      type: 'object',
      properties: { r: { type: 'array', prefixItems: [{ type: 'integer' }], items: false } },
    });
  });

  it('strip-annotations drops refused annotations and vendor keys but never a description', () => {
    const result = rule('strip-annotations').apply(
      draft({
        type: 'object',
        $schema: 'x',
        properties: { a: { type: 'string', 'x-order': 1, examples: ['q'], description: 'A' } },
      }),
      MFJS,
    );
    expect(result.parameters).toEqual({ type: 'object', properties: { a: { type: 'string', description: 'A' } } });
  });

  it('constraints-to-description moves refused constraints into the node description', () => {
    const result = rule('constraints-to-description').apply(
      draft({
        type: 'object',
        properties: {
          when: { type: 'string', format: 'date-time', pattern: '^2' },
          url: { type: 'string', format: 'uri', description: 'Where' },
        },
      }),
      STRICT,
    );
    // Strict mode keeps `format: date-time` and `pattern` but not the `uri` format.
    expect(result.parameters).toEqual({
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time', pattern: '^2' },
        url: { type: 'string', description: 'Where (constraints: format "uri")' },
      },
    });
  });

  it('drop-conditional-requirements removes conditionals and adds the fixed note once', () => {
    const result = rule('drop-conditional-requirements').apply(
      draft({
        type: 'object',
        properties: { a: { type: 'string' } },
        dependentRequired: { a: ['b'] },
        if: { required: ['a'] },
        // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword under test
        then: { required: ['b'] },
      }),
      MFJS,
    );
    expect(result.parameters).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(result.description).toBe(`A tool.\n\n${CONDITIONAL_NOTE}`);
  });

  it('close-objects-for-strict closes objects, requires every property and makes optional ones nullable', () => {
    const result = rule('close-objects-for-strict').apply(
      draft({
        type: 'object',
        properties: {
          a: { type: 'string' },
          b: { type: 'integer', enum: [1, 2] },
          c: { anyOf: [{ type: 'string' }], description: 'C' },
        },
        required: ['a'],
      }),
      STRICT,
    );
    expect(result.parameters).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: ['integer', 'null'], enum: [1, 2, null] },
        c: { description: 'C', anyOf: [{ anyOf: [{ type: 'string' }] }, { type: 'null' }] },
      },
      required: ['a', 'b', 'c'],
      additionalProperties: false,
    });
    const map = draft({
      type: 'object',
      properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } },
      required: ['tags'],
    });
    expect(rule('close-objects-for-strict').apply(map, STRICT)).toBe(map);
  });
});

describe('MFJS rules', () => {
  it('drop-string-property-names removes the always-true key schema on every dialect, and no other', () => {
    const record = draft({
      type: 'object',
      properties: {
        vars: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string' } },
      },
    });
    for (const dialect of Object.values(SCHEMA_DIALECT_PRESETS))
      expect(rule('drop-string-property-names').apply(record, dialect).parameters).toEqual({
        type: 'object',
        properties: { vars: { type: 'object', additionalProperties: { type: 'string' } } },
      });
    const bounded = draft({ type: 'object', propertyNames: { type: 'string', minLength: 1 } });
    expect(rule('drop-string-property-names').apply(bounded, LOOSE)).toBe(bounded);
  });

  it('drop-string-property-names also removes a string key schema that carries only pure annotations', () => {
    for (const annotations of [
      { description: 'An environment variable name.' },
      { title: 'Key', examples: ['PATH'], $comment: 'zod' },
      { default: 'a', deprecated: false, readOnly: false, writeOnly: false },
    ] as JsonSchema[]) {
      const annotated = draft({ type: 'object', propertyNames: { type: 'string', ...annotations } });
      expect(rule('drop-string-property-names').apply(annotated, MFJS).parameters).toEqual({ type: 'object' });
    }
    // Anything that constrains, or that another part of the schema may point at, keeps it.
    for (const kept of [
      { format: 'email' },
      { pattern: '^[A-Z]+$' },
      { maxLength: 8 },
      { enum: ['a'] },
      { $anchor: 'key' },
      { $id: 'key' },
      { contentEncoding: 'base64' },
      { 'x-vendor': true },
    ] as JsonSchema[]) {
      const constrained = draft({ type: 'object', propertyNames: { type: 'string', description: 'A key.', ...kept } });
      expect(rule('drop-string-property-names').apply(constrained, MFJS), JSON.stringify(kept)).toBe(constrained);
    }
  });

  it('definitions-to-defs moves draft-07 definitions into $defs and retargets their references', () => {
    const result = rule('definitions-to-defs').apply(
      draft({
        type: 'object',
        properties: { a: { $ref: '#/definitions/A' }, b: { $ref: '#/$defs/B' } },
        definitions: { A: { type: 'string' } },
        $defs: { B: { type: 'integer' } },
      }),
      MFJS,
    );
    expect(result.parameters).toEqual({
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' }, b: { $ref: '#/$defs/B' } },
      $defs: { B: { type: 'integer' }, A: { type: 'string' } },
    });
    // A clash with a different $defs entry, or a name $defs cannot hold as written, stops the rule.
    const clash = draft({ type: 'object', definitions: { A: { type: 'string' } }, $defs: { A: { type: 'integer' } } });
    expect(rule('definitions-to-defs').apply(clash, MFJS)).toBe(clash);
    const slashed = draft({ type: 'object', definitions: { 'a/b': { type: 'string' } } });
    expect(rule('definitions-to-defs').apply(slashed, MFJS)).toBe(slashed);
    const elsewhere = draft({ type: 'object', definitions: { A: { type: 'string' } } });
    expect(rule('definitions-to-defs').apply(elsewhere, LOOSE)).toBe(elsewhere);
  });

  it('refs-into-root-defs inlines references that do not point into the root $defs, and keeps those that do', () => {
    const result = rule('refs-into-root-defs').apply(
      draft({
        type: 'object',
        properties: {
          source: { type: 'object', properties: { path: { type: 'string' } } },
          target: { $ref: '#/properties/source', description: 'Where to.' },
          unit: { $ref: '#/$defs/Unit' },
        },
        $defs: { Unit: { type: 'string', enum: ['c', 'f'] } },
      }),
      MFJS,
    );
    expect(result.parameters).toEqual({
      type: 'object',
      properties: {
        source: { type: 'object', properties: { path: { type: 'string' } } },
        target: { description: 'Where to.', type: 'object', properties: { path: { type: 'string' } } },
        unit: { $ref: '#/$defs/Unit' },
      },
      $defs: { Unit: { type: 'string', enum: ['c', 'f'] } },
    });
    const recursive = draft({
      type: 'object',
      properties: { tree: { type: 'object', properties: { child: { $ref: '#/properties/tree' } } } },
    });
    expect(rule('refs-into-root-defs').apply(recursive, MFJS)).toBe(recursive);
    expect(projectSchema(recursive, MFJS)).toEqual({ outcome: 'omitted', reason: 'ref-outside-defs' });
  });

  it('siblings-into-branches drops refused annotations beside anyOf and moves assertions into the branches', () => {
    const result = rule('siblings-into-branches').apply(
      draft({
        type: 'object',
        properties: {
          limit: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null, description: 'Most rows.' },
          name: { anyOf: [{ type: 'string' }, { type: 'null' }], maxLength: 9, title: 'Name' },
        },
      }),
      MFJS,
    );
    expect(result.parameters).toEqual({
      type: 'object',
      properties: {
        limit: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'Most rows.' },
        name: { anyOf: [{ type: 'string', maxLength: 9 }, { type: 'null' }], title: 'Name' },
      },
    });
  });

  it('siblings-into-branches inlines a reference that has assertions beside it, and drops a refused annotation', () => {
    const result = rule('siblings-into-branches').apply(
      draft({
        type: 'object',
        properties: {
          mode: { $ref: '#/$defs/Mode', default: 'read' },
          size: { $ref: '#/$defs/Size', maximum: 9 },
        },
        $defs: { Mode: { type: 'string', enum: ['read', 'write'] }, Size: { type: 'integer' } },
      }),
      MFJS,
    );
    expect(result.parameters).toEqual({
      type: 'object',
      properties: { mode: { $ref: '#/$defs/Mode' }, size: { maximum: 9, type: 'integer' } },
      $defs: { Mode: { type: 'string', enum: ['read', 'write'] }, Size: { type: 'integer' } },
    });
    const untouched = draft({ type: 'object', properties: { a: { anyOf: [{ type: 'string' }], default: 'x' } } });
    expect(rule('siblings-into-branches').apply(untouched, LOOSE)).toBe(untouched);
  });

  it('one-description-per-level keeps the outer description: branches lose theirs, a repeated target is inlined', () => {
    const result = rule('one-description-per-level').apply(
      draft({
        type: 'object',
        properties: {
          path: {
            description: 'File or files.',
            anyOf: [
              { type: 'string', description: 'One path.' },
              { type: 'array', items: { type: 'string' } },
            ],
          },
          mode: { $ref: '#/$defs/Mode', description: 'How to open it.' },
          other: { $ref: '#/$defs/Mode' },
        },
        $defs: { Mode: { type: 'string', enum: ['r', 'w'], description: 'A mode.' } },
      }),
      MFJS,
    );
    expect(result.parameters).toEqual({
      type: 'object',
      properties: {
        path: {
          description: 'File or files.',
          anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
        },
        mode: { description: 'How to open it.', type: 'string', enum: ['r', 'w'] },
        other: { $ref: '#/$defs/Mode' },
      },
      $defs: { Mode: { type: 'string', enum: ['r', 'w'], description: 'A mode.' } },
    });
  });

  it('names the MFJS construct that keeps a tool off the route', () => {
    const besideRecursive = draft({
      type: 'object',
      properties: { node: { $ref: '#/$defs/Node', type: 'object' } },
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
    });
    expect(projectSchema(besideRecursive, MFJS)).toEqual({ outcome: 'omitted', reason: 'sibling-not-accepted' });
    const repeatedRecursive = draft({
      type: 'object',
      properties: { node: { $ref: '#/$defs/Node', description: 'A node.' } },
      $defs: { Node: { description: 'Node.', type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
    });
    expect(projectSchema(repeatedRecursive, MFJS)).toEqual({ outcome: 'omitted', reason: 'annotation-repeated' });
  });
});

describe('projectSchema', () => {
  it('falls back to a non-strict tool when a strict route cannot take the schema strictly', () => {
    const map = {
      type: 'object',
      properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } },
      required: ['tags'],
    };
    const result = projectSchema(draft(map), STRICT);
    expect(result).toEqual({ outcome: 'relaxed', draft: draft(map), strict: false, rules: ['strict-off'] });
    expect(projectSchema(draft(map), { ...STRICT, strict_fallback: false })).toEqual({
      outcome: 'omitted',
      reason: 'strict-not-satisfiable',
    });
  });

  it('names the construct that keeps a tool off a route', () => {
    expect(
      projectSchema(draft({ type: 'object', properties: { v: { type: 'string', not: { const: 'x' } } } }), MFJS),
    ).toEqual({ outcome: 'omitted', reason: 'keyword-not-accepted' });
    expect(projectSchema(draft({ type: 'string' }), LOOSE)).toEqual({ outcome: 'omitted', reason: 'root-not-object' });
    expect(
      projectSchema(draft({ type: 'object', properties: { v: { $ref: 'https://example.test/schema.json' } } }), LOOSE),
    ).toEqual({
      outcome: 'omitted',
      reason: 'ref-unresolvable',
    });
  });
});
