import type { z } from 'zod';
import { lazySchema } from '../validation/lazy-zod.js';
import { labelSchema } from '../route/label.js';
import { KNOWN_KEYWORDS } from './projection/schema-keywords.js';

// What a route accepts in tool definitions, as data the projection engine reads. This schema is the
// one definition of the rule fields: the full rules, the form a capability row writes and both types
// derive from it. The presets that fill a row's missing fields live in schema-dialects.ts.

const limit = lazySchema((z) => z.number().int().positive().nullable());
// Readonly so the inferred types match how the engine treats rules: shared, never edited in place.
const names = lazySchema((z) => z.array(z.string()).readonly());
// Keywords from cw's own vocabulary only: views print these lists as they are.
const knownKeywords = lazySchema((z) =>
  z
    .array(z.string().refine((keyword) => KNOWN_KEYWORDS.has(keyword), 'must be a JSON Schema keyword cw knows'))
    .readonly(),
);

function compilesAsRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** A route's complete tool-schema rules: every field set, as a preset or a resolved row carries them. */
export const toolSchemaRulesSchema = lazySchema((z) =>
  z
    .object({
      /** The named JSON Schema subset (docs/capability-rows.md) these rules start from; diagnostics name it. */
      dialect: labelSchema,
      /** Keywords the route rejects anywhere in a schema. */
      deny_keywords: names,
      /** When set, the only keywords that may appear anywhere in a schema. */
      allow_keywords: names.nullable(),
      /** The root must be `type: "object"`. */
      root_must_be_object: z.boolean(),
      /** Whether `oneOf` / `anyOf` / `allOf` may sit at the root. */
      allows_root_combinators: z.boolean(),
      /** Whether `type` may sit beside `anyOf` / `oneOf` / `allOf` in one node. */
      type_beside_combinator: z.boolean(),
      /** Whether `type` may be a list (`["string", "null"]`). */
      allows_type_list: z.boolean(),
      /** Every subschema must declare a `type` (or be a union or reference); `{}` only as additionalProperties. */
      requires_type: z.boolean(),
      /** Whether `$ref` (to `$defs` / `definitions` in the same document) is accepted. */
      allows_ref: z.boolean(),
      /** Whether a reference may lead back to itself (a recursive schema such as a tree). */
      allows_recursive_ref: z.boolean(),
      /**
       * Whether `$ref` may point anywhere in the document. When false, only at an entry of the root
       * `$defs` (`#/$defs/Name`) or at the root (`#`), and `$defs` / `$id` appear at the root only.
       */
      allows_ref_outside_defs: z.boolean(),
      /**
       * When set, the only keywords a node holding `anyOf` / `oneOf` / `allOf` or `$ref` may also hold
       * (the root's `$defs` and `$id` aside).
       */
      keywords_beside_union_or_ref: knownKeywords.nullable(),
      /**
       * Whether a union or reference node and a branch of it (or the schema it references) may both
       * carry a `description`, or both a `title`.
       */
      allows_repeated_annotations: z.boolean(),
      /** Whether draft-07 array-form `items` (a tuple) is accepted. */
      allows_tuple_items: z.boolean(),
      /** When set, the only `format` values the route accepts; others move into the description. */
      allowed_formats: names.nullable(),
      /** Whether `null` may appear inside an `enum`. */
      enum_allows_null: z.boolean(),
      /** Deepest nesting of object schemas; the root object is depth 1. */
      max_depth: limit,
      /** Largest schema, in UTF-8 bytes of its JSON text. */
      max_schema_bytes: limit,
      /** Most properties, counted over every object in the schema. */
      max_properties: limit,
      /** Most branches in one `anyOf` / `oneOf`. */
      max_any_of: limit,
      /** Most enum values, counted over the whole schema. */
      max_enum: limit,
      /** Tool names must match this pattern (source of a JS RegExp). */
      name_pattern: z.string().min(1).max(200).refine(compilesAsRegExp, 'must be a valid regular expression'),
      /** Most tools one request may carry; later tools in catalog order are omitted. */
      max_tools: limit,
      /** Function tools are sent with `strict: true`, after the strict-mode rewrite. */
      strict_default: z.boolean(),
      /** A tool that cannot be made strict is sent non-strict, as authored, instead of being omitted. */
      strict_fallback: z.boolean(),
    })
    .strict(),
);

/** What a route accepts in tool definitions: complete rules, as the projection engine reads them. */
export type ToolSchemaRules = Readonly<z.output<typeof toolSchemaRulesSchema>>;

/**
 * The rules as a capability row writes them: the schema dialect label, and only the fields that
 * differ from that dialect's preset (withSchemaDialectDefaults fills in the rest).
 */
export const toolSchemaRulesInputSchema = lazySchema(() => toolSchemaRulesSchema.partial().required({ dialect: true }));

/** A row's tool-schema fields as written: a dialect label plus any overrides. */
export type ToolSchemaRulesInput = Readonly<z.input<typeof toolSchemaRulesInputSchema>>;
