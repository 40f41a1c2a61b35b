// The JSON Schema vocabulary the projection engine reasons about, by what a keyword does.
// Sources: JSON Schema 2020-12 core and validation vocabularies, plus the draft-07 spellings MCP
// servers still emit (`definitions`, `dependencies`, array-form `items`, `additionalItems`).

/** Keywords whose value is one subschema. */
export const SINGLE_SCHEMA_KEYWORDS: readonly string[] = [
  'items',
  'additionalProperties',
  'additionalItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentSchema',
];

/** Keywords whose value maps names to subschemas (the names are data, not keywords). */
export const SCHEMA_MAP_KEYWORDS: readonly string[] = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
];

/** Keywords whose value is a list of subschemas. */
export const SCHEMA_LIST_KEYWORDS: readonly string[] = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/** The union keywords a route may refuse at the root or beside `type`. */
export const COMBINATOR_KEYWORDS = ['oneOf', 'anyOf', 'allOf'] as const;

/**
 * Keywords that only describe: removing one never changes which arguments validate. `description`
 * is deliberately absent: it carries meaning for the model, and projection never removes it.
 */
export const ANNOTATION_KEYWORDS: readonly string[] = [
  'title',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  '$schema',
  '$id',
  '$anchor',
  'contentMediaType',
  'contentEncoding',
];

/**
 * Value constraints a route may not enforce. When it refuses one, projection writes it into the
 * node's description instead: the model still sees it, and the tool validates its own arguments.
 */
export const CONSTRAINT_KEYWORDS: readonly string[] = [
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
];

/** Keywords that make requirements conditional; a route that cannot express them gets a description note. */
export const CONDITIONAL_KEYWORDS: readonly string[] = [
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'if',
  'then',
  'else',
];

/** Every keyword cw knows by name; anything else in a schema node is an unknown annotation. */
export const KNOWN_KEYWORDS: ReadonlySet<string> = new Set([
  ...SINGLE_SCHEMA_KEYWORDS,
  ...SCHEMA_MAP_KEYWORDS,
  ...SCHEMA_LIST_KEYWORDS,
  ...ANNOTATION_KEYWORDS,
  ...CONSTRAINT_KEYWORDS,
  ...CONDITIONAL_KEYWORDS,
  'description',
  'type',
  'enum',
  'const',
  'required',
  '$ref',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$vocabulary',
  'nullable',
]);

/** Which keywords belong to which instance type, so a type list can be split into one branch per type. */
export const KEYWORDS_BY_TYPE: Readonly<Record<string, readonly string[]>> = {
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentMediaType', 'contentEncoding'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
    'dependentRequired',
    'dependentSchemas',
    'unevaluatedProperties',
  ],
  array: [
    'items',
    'prefixItems',
    'additionalItems',
    'minItems',
    'maxItems',
    'uniqueItems',
    'contains',
    'minContains',
    'maxContains',
    'unevaluatedItems',
  ],
  boolean: [],
  null: [],
};

/** Whether a keyword only describes: a known annotation, `description`, or a keyword cw does not know (validators ignore those). */
export function isAnnotationKeyword(keyword: string): boolean {
  return keyword === 'description' || ANNOTATION_KEYWORDS.includes(keyword) || !KNOWN_KEYWORDS.has(keyword);
}
