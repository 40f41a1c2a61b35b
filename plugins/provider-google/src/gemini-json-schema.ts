import type { CapabilityRowInput } from '@cw/core/plugin';

/**
 * What the Gemini API takes in `functionDeclarations[].parametersJsonSchema`, as a complete set of
 * projection rules under its own schema-dialect label (a label cw ships no preset for, so every
 * field is written here). The keyword list is the one the API documents for its JSON Schema input
 * (GenerationConfig.responseJsonSchema in the discovery document; docs/capability-rows.md, "Schema
 * dialects"), narrowed where the documentation is silent or loose:
 * - `$ref` / `$defs` are inlined (`$ref` may carry nothing but `$` keys beside it, and recursion is
 *   only partly supported), so a recursive schema is left off;
 * - `oneOf` is sent as `anyOf` (the API reads it so), `const` as a one-value `enum`, and a type list
 *   as an `anyOf` of types;
 * - constraints outside the list (`pattern`, `minLength`, …) move into the description, and
 *   annotations outside it (`default`, `examples`) are dropped;
 * - `null` may not sit in an `enum` (enums hold strings and numbers).
 * Function names: a letter or underscore first, then letters, digits, `_ . : -`, at most 64.
 */
export const GEMINI_JSON_SCHEMA: CapabilityRowInput['tool_schema'] = {
  dialect: 'gemini-json-schema',
  deny_keywords: [],
  allow_keywords: [
    'type',
    'format',
    'title',
    'description',
    'enum',
    'items',
    'prefixItems',
    'minItems',
    'maxItems',
    'minimum',
    'maximum',
    'anyOf',
    'properties',
    'additionalProperties',
    'required',
    'propertyOrdering',
  ],
  root_must_be_object: true,
  allows_root_combinators: false,
  type_beside_combinator: false,
  allows_type_list: false,
  requires_type: false,
  allows_ref: false,
  allows_recursive_ref: false,
  allows_ref_outside_defs: false,
  keywords_beside_union_or_ref: null,
  allows_repeated_annotations: true,
  allows_tuple_items: false,
  allowed_formats: null,
  enum_allows_null: false,
  max_depth: null,
  max_schema_bytes: null,
  max_properties: null,
  max_any_of: null,
  max_enum: null,
  name_pattern: '^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$',
  max_tools: null,
  strict_default: false,
  strict_fallback: false,
};
