import type { z } from 'zod';
import { lazySchema } from '../validation/lazy-zod.js';
import { baseUrlSchema } from './base-url.js';
import { endpointPathSchema } from './endpoint-path.js';
import { withSchemaDialectDefaults } from '../tools/schema-dialects.js';
import { toolSchemaRulesInputSchema } from '../tools/tool-schema-rules.js';
import { labelSchema } from './label.js';
import { modelPriceSchema } from './model-price.js';

export { labelSchema } from './label.js';

/** A wire dialect id, e.g. `chat-completions`; a dialect plugin supplies its body builder. */
export type Dialect = string;
/** Which builder branch ran for a route, as the manifest reports it, e.g. `standard`. */
export type RouteShape = string;

const ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;
// Body keys are snake_case on most wires and camelCase on some (generationConfig.maxOutputTokens).
const KEY_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

// Headers the transport writes itself (framing and content negotiation): a key may never replace them.
const TRANSPORT_HEADERS = ['host', 'content-type', 'content-length', 'accept', 'connection', 'transfer-encoding'];

/** The name of a header that carries an API key as it is (such as `x-service-key`): a lower-case HTTP token. */
export const keyHeaderSchema = lazySchema((z) =>
  z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,63}$/, 'must be a lower-case header name')
    .refine((name) => !TRANSPORT_HEADERS.includes(name), 'must not be a header the transport writes itself'),
);

/** A dotted path into a wire body, e.g. `max_tokens` or `thinking.budget_tokens`. */
export const bodyKeyPathSchema = lazySchema((z) =>
  z.string().max(128).regex(KEY_PATH, 'must be a dotted path of identifier keys'),
);

/** Where the context window figure came from, most to least authoritative. */
export const CONTEXT_SOURCES = ['configured', 'provider-reported', 'catalog', 'name-suffix-hint', 'fallback'] as const;

/** BPE encodings cw can count offline (from the gpt-tokenizer package); a row names the one its model family uses. */
export const OFFLINE_TOKENIZERS = ['o200k_base', 'cl100k_base'] as const;
/** An offline tokenizer encoding name. */
export type OfflineTokenizer = (typeof OFFLINE_TOKENIZERS)[number];

const billingSchema = lazySchema((z) =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('metered') }).strict(),
    z.object({ kind: z.literal('subscription'), plan: z.string().min(1).max(80) }).strict(),
    z.object({ kind: z.literal('local') }).strict(),
    z.object({ kind: z.literal('unknown') }).strict(),
  ]),
);

/** Reasoning tiers cw accepts from a user, before a route maps them to its own wire values. */
export const REASONING_TIERS = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
/** A user-facing reasoning tier. */
export type ReasoningTier = (typeof REASONING_TIERS)[number];
/** What a user may select: a tier, or `auto`, which picks a tier from the prompt on every turn. */
export const REASONING_SELECTIONS = [...REASONING_TIERS, 'auto'] as const;
/** A user's reasoning selection. */
export type ReasoningSelection = (typeof REASONING_SELECTIONS)[number];

const jsonLeaf = lazySchema((z) => z.union([z.string(), z.number(), z.boolean(), z.null()]));

const reasoningSchema = lazySchema((z) =>
  z
    .object({
      /** Dotted body path that carries the effort/budget/toggle, e.g. `reasoning_effort`, `thinking.effort`. */
      key_path: bodyKeyPathSchema,
      value_kind: z.enum(['effort', 'budget', 'toggle']),
      /** Wire value for each tier; a tier mapped to null sends no control at all. */
      values: z.partialRecord(z.enum(REASONING_TIERS), jsonLeaf),
      /**
       * Extra body paths set with the control (e.g. `thinking.type`), keyed by tier, or by `on` (every
       * tier but off) and `all`; a tier's own entry wins over `on`, which wins over `all`.
       */
      also_set: z
        .partialRecord(z.enum([...REASONING_TIERS, 'on', 'all']), z.record(bodyKeyPathSchema, jsonLeaf))
        .default({}),
      /** The tier used when the user selected none; null means the route sends no control by default. */
      default_tier: z.enum(REASONING_TIERS).nullable(),
      /** Top-level body keys removed when a reasoning control is sent (e.g. sampling the provider rejects). */
      conflicting_params: z.array(z.string()).default([]),
      /**
       * When replies' reasoning state goes back to the provider: `never`, `tool-loop` (only the
       * assistant messages since the last user message, as APIs that require it within a tool loop
       * and reject or ignore it later do), or `always`.
       */
      replay: z.enum(['never', 'tool-loop', 'always']).default('tool-loop'),
      /** True when sending reasoning forces tool_choice off the body (the provider rejects it while thinking). */
      omits_tool_choice: z.boolean().default(false),
      /** True when a forced tool_choice (required or named) is refused while reasoning is sent. */
      forbids_forced_tool_choice: z.boolean().default(false),
    })
    .strict(),
);

const toolChoiceForm = lazySchema((z) => z.enum(['auto', 'none', 'required', 'named']));

const toolChoiceSchema = lazySchema((z) =>
  z
    .object({
      accepted: z.array(toolChoiceForm).min(1),
      /** What each unaccepted form becomes: another form, `omit` (no tool_choice), or `drop-tools` (no tools either). */
      fallback: z.partialRecord(toolChoiceForm, z.enum(['auto', 'none', 'required', 'omit', 'drop-tools'])).default({}),
    })
    .strict(),
);

const outputCapSchema = lazySchema((z) =>
  z
    .object({
      /** Body path the dialect writes the output cap to; null when the route sends none. */
      field: bodyKeyPathSchema.nullable(),
      /** Tokens requested by default, before the output limit and the window clamp them; unused when field is null. */
      default_tokens: z.number().int().positive(),
      /**
       * Tokens kept out of the input budget for the reply when the route sends no cap (field null);
       * null reserves nothing. With a cap sent, the reservation is the cap itself.
       */
      reserve_tokens: z.number().int().min(0).nullable().default(null),
    })
    .strict()
    .refine((cap) => cap.field === null || cap.reserve_tokens === null, {
      message: 'reserve_tokens is for a route that sends no cap: with a cap field the reservation is the cap',
      path: ['reserve_tokens'],
    }),
);

const contextSchema = lazySchema((z) =>
  z
    .object({
      window_tokens: z.number().int().positive(),
      source: z.enum(CONTEXT_SOURCES),
      input_limit_tokens: z.number().int().positive().nullable().default(null),
      output_limit_tokens: z.number().int().positive().nullable().default(null),
    })
    .strict(),
);

/** Regions of a body a dialect may mark as a prompt-cache breakpoint, in the order the provider renders them. */
export const CACHE_BREAKPOINT_REGIONS = ['tools', 'system', 'conversation-tail'] as const;

const promptCacheSchema = lazySchema((z) =>
  z
    .object({
      /** Where the dialect places breakpoints: after the last tool, the system prompt, the latest user turns. */
      breakpoints: z.array(z.enum(CACHE_BREAKPOINT_REGIONS)).max(3).default([]),
      /** How many of the latest user turns get a `conversation-tail` breakpoint. */
      tail_turns: z.number().int().min(1).max(8).default(1),
      /** The provider's limit of breakpoints in one request; beyond it the earliest are dropped. */
      max_breakpoints: z.number().int().min(1).max(64).default(4),
      /** Body path that carries a cache key derived from the session (`prompt_cache_key`); null sends none. */
      key_field: bodyKeyPathSchema.nullable().default(null),
    })
    .strict(),
);

const provenanceSchema = lazySchema((z) =>
  z
    .object({
      /** Where the facts in this row come from (a docs page, a config file, a measurement). */
      source: z.string().min(1).max(200),
    })
    .strict(),
);

/** Whether a model-override pattern compiles as a JavaScript regular expression. */
function compilesAsPattern(source: string): boolean {
  try {
    new RegExp(`^(?:${source})$`, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * Facts one model (or a family, by pattern) has on a route where they differ from the row's. Each
 * field present replaces the row's field; `output_cap` and `context` replace only the keys they name.
 * The base URL, authentication and route identity never change per model.
 */
const modelOverrideSchema = lazySchema((z) =>
  z
    .object({
      match: z
        .object({
          /** Model ids matched exactly (as the user selects them, or as they go on the wire). */
          ids: z.array(z.string().min(1).max(256)).max(64).default([]),
          /** A JavaScript regular expression a whole model id must match. */
          pattern: z
            .string()
            .min(1)
            .max(200)
            .refine(compilesAsPattern, 'must be a valid regular expression')
            .optional(),
        })
        .strict()
        .refine((match) => match.ids.length > 0 || match.pattern !== undefined, 'needs ids or a pattern'),
      dialect: labelSchema.optional(),
      /** Replaces `endpoint.path` (appended to the row's own base URL). */
      endpoint_path: z.string().startsWith('/').optional(),
      reasoning: reasoningSchema.nullable().optional(),
      output_cap: z
        .object({
          field: bodyKeyPathSchema.nullable().optional(),
          default_tokens: z.number().int().positive().optional(),
          reserve_tokens: z.number().int().min(0).nullable().optional(),
        })
        .strict()
        .optional(),
      context: z
        .object({
          window_tokens: z.number().int().positive().optional(),
          source: z.enum(CONTEXT_SOURCES).optional(),
          input_limit_tokens: z.number().int().positive().nullable().optional(),
          output_limit_tokens: z.number().int().positive().nullable().optional(),
        })
        .strict()
        .optional(),
      tool_schema: toolSchemaRulesInputSchema.transform(withSchemaDialectDefaults).optional(),
      omit_body_keys: z.array(z.string().regex(/^[a-z_][a-z0-9_]*$/)).optional(),
      tokenizer: z.enum(OFFLINE_TOKENIZERS).nullable().optional(),
      image_input: z.boolean().optional(),
      prompt_cache: promptCacheSchema.nullable().optional(),
      /** Where these model facts come from, when not the row's own source. */
      provenance: provenanceSchema.optional(),
    })
    .strict(),
);

/** A model override as a plugin writes it. */
export type ModelOverrideInput = z.input<typeof modelOverrideSchema>;
/** A validated model override. */
export type ModelOverride = z.output<typeof modelOverrideSchema>;

/** A capability row: one provider route described as data. Every field is documented in docs/capability-rows.md. */
export const capabilityRowSchema = lazySchema((z) =>
  z
    .object({
      provider_id: z.string().regex(ID),
      provider_display: z.string().min(1).max(80),
      /** Plugin rows use short ids; a route built from user config may carry any id (it is redacted when shown). */
      route_id: z.string().min(1).max(256),
      dialect: labelSchema,
      route_shape: labelSchema,
      endpoint: z
        .object({
          base_url: baseUrlSchema,
          /** Path appended to base_url for the POST, e.g. `/chat/completions`; `{model}` stands for the wire model. */
          path: endpointPathSchema,
          /** The path on the streaming entry point when the wire asks for a stream by URL; null: `path` on both. */
          streaming_path: endpointPathSchema.nullable().default(null),
        })
        .strict(),
      auth: z
        .object({
          /** How the key travels: `Authorization: Bearer`, an `x-api-key` header, the header `key_header` names, or not at all. */
          scheme: z.enum(['bearer', 'x-api-key', 'header', 'none']),
          /** Environment variable that holds the key; the key itself is never stored. */
          api_key_env: z
            .string()
            .regex(/^[A-Z_][A-Z0-9_]*$/)
            .nullable(),
          /** With scheme `header`: the header that carries the key as it is; null for every other scheme. */
          key_header: keyHeaderSchema.nullable().default(null),
          /** Fixed extra headers (e.g. `anthropic-version`); never secrets. */
          headers: z.record(z.string(), z.string()).default({}),
        })
        .strict()
        .refine((auth) => (auth.scheme === 'header') === (auth.key_header !== null), {
          message: 'key_header names the key header of scheme header, and only of that scheme',
          path: ['key_header'],
        }),
      model: z
        .object({
          /** The model a user selects when they name none. */
          default: z.string().min(1),
          /** User-facing model id -> wire model id, for routes whose wire ids differ. */
          wire_map: z.record(z.string(), z.string()).default({}),
          /** Model ids this route knows; slash-bearing ids here may be printed verbatim. */
          catalog: z.array(z.string()).default([]),
        })
        .strict(),
      context: contextSchema,
      output_cap: outputCapSchema,
      billing: billingSchema,
      /** Written as a schema dialect label plus overrides; parsed into complete rules from that dialect's preset. */
      tool_schema: toolSchemaRulesInputSchema.transform(withSchemaDialectDefaults),
      tool_choice: toolChoiceSchema,
      reasoning: reasoningSchema.nullable(),
      /** Top-level body keys this route never takes (e.g. sampling a fixed-sampling model rejects); removed after every tap. */
      omit_body_keys: z.array(z.string().regex(/^[a-z_][a-z0-9_]*$/)).default([]),
      /** Offline BPE encoding of the route's model family, for preview token counts; null when none ships with cw. */
      tokenizer: z.enum(OFFLINE_TOKENIZERS).nullable().default(null),
      /** Whether the model takes image input parts. */
      image_input: z.boolean().default(false),
      /** Prompt caching the route takes: where breakpoints go and which body key carries a cache key; null for none. */
      prompt_cache: promptCacheSchema.nullable().default(null),
      /**
       * Facts that differ per model on this route, first match wins (docs/capability-rows.md): a model
       * without a match gets the row's own facts.
       */
      models: z.array(modelOverrideSchema).max(64).default([]),
      /**
       * Published prices per model, each with its pricing page and the day it was read; a model
       * without one has no known price (docs/capability-rows.md, "Prices").
       */
      prices: z
        .array(modelPriceSchema)
        .max(64)
        .default([])
        .refine((prices) => {
          const ids = prices.flatMap((price) => price.models);
          return new Set(ids).size === ids.length;
        }, 'a model may have one price only'),
      provenance: provenanceSchema,
    })
    .strict(),
);

/** A capability row as a plugin writes it (defaults not yet applied). */
export type CapabilityRowInput = z.input<typeof capabilityRowSchema>;
/** A validated capability row with defaults applied. */
export type CapabilityRowData = z.output<typeof capabilityRowSchema>;
/** A registered row: the data plus which plugin registered it. */
export type CapabilityRow = CapabilityRowData & { readonly plugin: string };
