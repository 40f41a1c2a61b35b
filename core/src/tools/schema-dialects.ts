import type { ToolSchemaRules, ToolSchemaRulesInput } from './tool-schema-rules.js';

// The rule types are inferred from the schema in tool-schema-rules.ts; they are re-exported so a
// module that imports the presets (the package entry point among them) finds the types beside them.
export type { ToolSchemaRules, ToolSchemaRulesInput } from './tool-schema-rules.js';

// Named JSON Schema subsets a route can accept for tool parameters. A row names one and may override
// any field; the preset supplies the rest. Facts and sources: docs/capability-rows.md, "Schema dialects".

/** The schema dialects cw ships presets for. A row may name another label; it then starts from `loose`. */
export const SCHEMA_DIALECTS = [
  'loose',
  'strict',
  'strict-narrow',
  'mfjs',
  'draft-2020-object',
  'object-root',
] as const;
/** A schema dialect cw ships a preset for. */
export type SchemaDialect = (typeof SCHEMA_DIALECTS)[number];

// The permissive base every preset starts from: what an OpenAI-compatible chat endpoint takes.
const LOOSE: ToolSchemaRules = {
  dialect: 'loose',
  deny_keywords: [],
  allow_keywords: null,
  root_must_be_object: true,
  allows_root_combinators: true,
  type_beside_combinator: true,
  allows_type_list: true,
  requires_type: false,
  allows_ref: true,
  allows_recursive_ref: true,
  allows_ref_outside_defs: true,
  keywords_beside_union_or_ref: null,
  allows_repeated_annotations: true,
  allows_tuple_items: true,
  allowed_formats: null,
  enum_allows_null: true,
  max_depth: null,
  max_schema_bytes: null,
  max_properties: null,
  max_any_of: null,
  max_enum: null,
  name_pattern: '^[a-zA-Z0-9_-]{1,64}$',
  max_tools: null,
  strict_default: false,
  strict_fallback: false,
};

// The keywords function strict mode accepts (sources: docs/capability-rows.md, "Schema dialects").
const STRICT_MODE_KEYWORDS = [
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  'description',
  '$ref',
  '$defs',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
];

/** Each schema dialect's full rules; a row's own fields override these. */
export const SCHEMA_DIALECT_PRESETS: Readonly<Record<SchemaDialect, ToolSchemaRules>> = {
  loose: LOOSE,
  strict: {
    ...LOOSE,
    dialect: 'strict',
    allow_keywords: STRICT_MODE_KEYWORDS,
    allowed_formats: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'],
    allows_root_combinators: false,
    requires_type: true,
    allows_tuple_items: false,
    max_depth: 10,
    max_schema_bytes: 120_000,
    max_properties: 5_000,
    max_enum: 1_000,
    strict_default: true,
    strict_fallback: true,
  },
  // A strict mode narrower than OpenAI's: no string-length or item-count bounds.
  'strict-narrow': {
    ...LOOSE,
    dialect: 'strict-narrow',
    allow_keywords: STRICT_MODE_KEYWORDS.filter((keyword) => keyword !== 'minItems' && keyword !== 'maxItems'),
    allowed_formats: ['email', 'hostname', 'ipv4', 'ipv6', 'uuid'],
    allows_root_combinators: false,
    requires_type: true,
    allows_tuple_items: false,
    strict_default: true,
    strict_fallback: true,
  },
  // Moonshot Flavored JSON Schema: its validator's keyword allowlist and limits, and the tool-name rule
  // the API enforces (sources: docs/capability-rows.md, "Schema dialects").
  mfjs: {
    ...LOOSE,
    dialect: 'mfjs',
    allow_keywords: [
      '$id',
      '$ref',
      '$defs',
      'anyOf',
      'properties',
      'additionalProperties',
      'items',
      'type',
      'enum',
      'required',
      'maxLength',
      'minLength',
      'maximum',
      'minimum',
      'maxItems',
      'minItems',
      'title',
      'description',
      'default',
    ],
    allows_root_combinators: false,
    type_beside_combinator: false,
    allows_type_list: false,
    requires_type: true,
    allows_recursive_ref: false,
    // walle (the MFJS validator): references only into the root `$defs`; beside `anyOf` / `$ref` only
    // `description` and `title`; the same one of those never on a union or reference and inside it.
    allows_ref_outside_defs: false,
    keywords_beside_union_or_ref: ['description', 'title'],
    allows_repeated_annotations: false,
    allows_tuple_items: false,
    enum_allows_null: false,
    max_depth: 5,
    max_schema_bytes: 120_000,
    max_properties: 100,
    max_any_of: 10,
    max_enum: 500,
    name_pattern: '^[a-zA-Z][a-zA-Z0-9_-]{0,63}$',
  },
  // Anthropic `input_schema`: draft 2020-12, root `type: "object"` with no top-level union.
  'draft-2020-object': {
    ...LOOSE,
    dialect: 'draft-2020-object',
    allows_root_combinators: false,
    allows_tuple_items: false,
    name_pattern: '^[a-zA-Z0-9_-]{1,128}$',
  },
  // Routes that only require a plain object root (Responses, some chat gateways).
  'object-root': {
    ...LOOSE,
    dialect: 'object-root',
    allows_root_combinators: false,
  },
};

/** Fills every field a row leaves out from its schema dialect's preset (`loose` for a label cw has no preset for). */
export function withSchemaDialectDefaults(input: ToolSchemaRulesInput): ToolSchemaRules {
  const preset = (SCHEMA_DIALECT_PRESETS as Readonly<Record<string, ToolSchemaRules>>)[input.dialect] ?? LOOSE;
  const overrides = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  return { ...preset, ...overrides, dialect: input.dialect };
}
