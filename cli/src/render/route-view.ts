import type { CapabilityRow, JsonValue } from '@cw/core/plugin';
import { endpointUrl } from '@cw/core';

type Core = typeof import('@cw/core');
type Leaf = string | number | boolean | null;

/** A capability row as `cw routes --json` and `cw plugins:inspect --json` print it: every string redacted. */
export interface RouteView {
  readonly route_id: string;
  readonly provider_id: string;
  readonly provider_display: string;
  readonly defined_by: 'plugin-row' | 'user-config';
  readonly dialect: string;
  readonly route_shape: string;
  /** Never the URL itself: the host class and a fingerprint, as the manifest shows them. */
  readonly endpoint: { readonly host_class: string; readonly fingerprint: string };
  readonly auth: {
    readonly scheme: string;
    readonly api_key_env: string | null;
    /** The header that carries the key under scheme `header`; null otherwise. */
    readonly key_header: string | null;
    readonly header_names: readonly string[];
  };
  readonly model: {
    readonly default: string;
    readonly wire_map: Readonly<Record<string, string>>;
    readonly catalog: readonly string[];
  };
  readonly context: CapabilityRow['context'];
  readonly output_cap: CapabilityRow['output_cap'];
  readonly billing: { readonly kind: string; readonly plan?: string };
  readonly tool_schema: Readonly<Record<string, JsonValue>>;
  readonly tool_choice: CapabilityRow['tool_choice'];
  readonly reasoning: Readonly<Record<string, JsonValue>> | null;
  readonly omit_body_keys: readonly string[];
  readonly tokenizer: string | null;
  readonly image_input: boolean;
  readonly prompt_cache: PromptCacheView | null;
  /** The row's model overrides as declared: how each matches and which facts it sets. */
  readonly model_overrides: readonly ModelOverrideView[];
  /** Each model the row names, resolved: the facts a turn on it gets, and where each came from. */
  readonly models: readonly ModelFactsView[];
  /** Published prices per model, USD per million tokens, with the page (fingerprinted) and the day they were read. */
  readonly prices: readonly CapabilityRow['prices'][number][];
  readonly provenance: { readonly plugin: string; readonly source: string };
}

/** Prompt caching as a row declares it. */
export interface PromptCacheView {
  readonly breakpoints: readonly string[];
  readonly tail_turns: number;
  readonly max_breakpoints: number;
  readonly key_field: string | null;
}

/** One model override: its match (a pattern is only fingerprinted) and the facts it sets. */
export interface ModelOverrideView {
  readonly match: { readonly ids: readonly string[]; readonly pattern: string | null };
  readonly sets: readonly string[];
  readonly source: string | null;
}

/** A model's resolved facts on a route, with their provenance. */
export interface ModelFactsView {
  readonly model: string;
  readonly wire_model: string;
  /** `route-row` when no override matched; else how the override matched. */
  readonly facts_from: 'route-row' | 'model-id' | 'model-pattern';
  readonly dialect: string;
  readonly endpoint: { readonly host_class: string; readonly fingerprint: string };
  readonly reasoning: {
    readonly key_path: string;
    readonly value_kind: string;
    readonly default_tier: string | null;
    readonly values: Readonly<Record<string, Leaf>>;
  } | null;
  readonly output_cap: CapabilityRow['output_cap'];
  readonly context: CapabilityRow['context'];
  readonly tool_schema_dialect: string;
  readonly image_input: boolean;
  readonly prompt_cache: PromptCacheView | null;
  /** For each fact a model override may set: `model` (the override set it) or `row`. */
  readonly provenance: Readonly<Record<string, 'row' | 'model'>>;
}

/** Redacts every string of a row for printing; numbers, booleans and cw's own enums pass as they are. */
export function routeView(core: Core, row: CapabilityRow, definedBy: RouteView['defined_by']): RouteView {
  const catalog = new Set(row.model.catalog);
  const model = (id: string): string => core.safeCatalogModel(id, catalog);
  const leaf = (value: Leaf): Leaf => (typeof value === 'string' ? core.safeIdentifier(value) : value);
  const keyword = (name: string): string => (core.KNOWN_KEYWORDS.has(name) ? name : core.safeIdentifier(name));
  const presetPatterns = new Set(Object.values(core.SCHEMA_DIALECT_PRESETS).map((preset) => preset.name_pattern));
  const url = endpointUrl(row);
  const rules = row.tool_schema;
  return {
    route_id: core.safeIdentifier(row.route_id),
    provider_id: core.safeIdentifier(row.provider_id),
    provider_display: core.safePhrase(row.provider_display),
    defined_by: definedBy,
    dialect: core.safeIdentifier(row.dialect),
    route_shape: core.safeIdentifier(row.route_shape),
    endpoint: { host_class: core.endpointHostClass(url), fingerprint: core.endpointFingerprint(url) },
    auth: {
      scheme: row.auth.scheme,
      api_key_env: row.auth.api_key_env === null ? null : core.safeEnvVarName(row.auth.api_key_env),
      key_header: row.auth.key_header === null ? null : core.safeIdentifier(row.auth.key_header),
      header_names: Object.keys(row.auth.headers).map(core.safeIdentifier),
    },
    model: {
      default: model(row.model.default),
      wire_map: Object.fromEntries(Object.entries(row.model.wire_map).map(([from, to]) => [model(from), model(to)])),
      catalog: row.model.catalog.map(model),
    },
    context: row.context,
    output_cap: row.output_cap,
    billing:
      row.billing.kind === 'subscription'
        ? { kind: row.billing.kind, plan: core.safePhrase(row.billing.plan) }
        : { kind: row.billing.kind },
    tool_schema: {
      ...rules,
      dialect: core.safeIdentifier(rules.dialect),
      deny_keywords: rules.deny_keywords.map(keyword),
      allow_keywords: rules.allow_keywords === null ? null : rules.allow_keywords.map(keyword),
      allowed_formats: rules.allowed_formats === null ? null : rules.allowed_formats.map(core.safeIdentifier),
      keywords_beside_union_or_ref:
        rules.keywords_beside_union_or_ref === null ? null : rules.keywords_beside_union_or_ref.map(keyword),
      // A pattern a preset ships is cw's own text; any other is the plugin's, and is only fingerprinted.
      name_pattern: presetPatterns.has(rules.name_pattern) ? rules.name_pattern : core.fingerprint(rules.name_pattern),
    },
    tool_choice: row.tool_choice,
    reasoning:
      row.reasoning === null
        ? null
        : {
            key_path: core.safeKeyPath(row.reasoning.key_path),
            value_kind: row.reasoning.value_kind,
            values: Object.fromEntries(
              Object.entries(row.reasoning.values).map(([tier, value]) => [tier, leaf(value ?? null)]),
            ),
            also_set: Object.fromEntries(
              Object.entries(row.reasoning.also_set).map(([tier, paths]) => [
                tier,
                Object.fromEntries(
                  Object.entries(paths ?? {}).map(([path, value]) => [core.safeKeyPath(path), leaf(value)]),
                ),
              ]),
            ),
            default_tier: row.reasoning.default_tier,
            conflicting_params: row.reasoning.conflicting_params.map(core.safeIdentifier),
            omits_tool_choice: row.reasoning.omits_tool_choice,
            forbids_forced_tool_choice: row.reasoning.forbids_forced_tool_choice,
          },
    omit_body_keys: row.omit_body_keys.map(core.safeIdentifier),
    tokenizer: row.tokenizer,
    image_input: row.image_input,
    prompt_cache: promptCacheView(core, row.prompt_cache),
    model_overrides: row.models.map((override) => ({
      match: {
        ids: override.match.ids.map(model),
        // A pattern is the plugin's own text: shown only as a fingerprint.
        pattern: override.match.pattern === undefined ? null : core.fingerprint(override.match.pattern),
      },
      sets: core.MODEL_FACT_FIELDS.filter((field) => override[field] !== undefined),
      source: override.provenance === undefined ? null : core.safePhrase(override.provenance.source),
    })),
    models: modelsOf(row).map((id) => modelFactsView(core, row, id, model, leaf)),
    // A pricing page's address is a URL, which cw never prints: it is shown as a fingerprint.
    prices: row.prices.map((price) => ({
      ...price,
      models: price.models.map(model),
      source: core.safePhrase(price.source),
    })),
    provenance: { plugin: core.safePackageName(row.plugin), source: core.safePhrase(row.provenance.source) },
  };
}

/** The models a row names: its default, its catalog, and the ids its overrides match exactly. */
function modelsOf(row: CapabilityRow): string[] {
  return [...new Set([row.model.default, ...row.model.catalog, ...row.models.flatMap((entry) => entry.match.ids)])];
}

function modelFactsView(
  core: Core,
  row: CapabilityRow,
  id: string,
  model: (id: string) => string,
  leaf: (value: Leaf) => Leaf,
): ModelFactsView {
  const facts = core.resolveModelFacts(row, id);
  const resolved = facts.row;
  const url = endpointUrl(resolved);
  const reasoning = resolved.reasoning;
  return {
    model: model(id),
    wire_model: model(facts.wireModel),
    facts_from: facts.match === null ? 'route-row' : facts.match.by === 'id' ? 'model-id' : 'model-pattern',
    dialect: core.safeIdentifier(resolved.dialect),
    endpoint: { host_class: core.endpointHostClass(url), fingerprint: core.endpointFingerprint(url) },
    reasoning:
      reasoning === null
        ? null
        : {
            key_path: core.safeIdentifier(reasoning.key_path),
            value_kind: reasoning.value_kind,
            default_tier: reasoning.default_tier,
            values: Object.fromEntries(
              Object.entries(reasoning.values).map(([tier, value]) => [tier, leaf(value ?? null)]),
            ),
          },
    output_cap: resolved.output_cap,
    context: resolved.context,
    tool_schema_dialect: core.safeIdentifier(resolved.tool_schema.dialect),
    image_input: resolved.image_input,
    prompt_cache: promptCacheView(core, resolved.prompt_cache),
    provenance: facts.provenance,
  };
}

function promptCacheView(core: Core, cache: CapabilityRow['prompt_cache']): PromptCacheView | null {
  if (cache === null) return null;
  return {
    breakpoints: [...cache.breakpoints],
    tail_turns: cache.tail_turns,
    max_breakpoints: cache.max_breakpoints,
    key_field: cache.key_field === null ? null : core.safeIdentifier(cache.key_field),
  };
}

/** The columns of the `cw routes` table, in order. */
export const ROUTE_COLUMNS = ['ROUTE', 'PROVIDER', 'DIALECT', 'SHAPE', 'DEFAULT MODEL', 'PLUGIN'] as const;

/**
 * One table line's cells for a row view. The dialect is the default model's; a route whose models
 * go over different dialects says so.
 */
export function routeCells(view: RouteView): readonly string[] {
  const dialects = new Set(view.models.map((entry) => entry.dialect));
  const first = view.models[0]?.dialect ?? view.dialect;
  const dialect = dialects.size > 1 ? `${first} (per model)` : first;
  return [view.route_id, view.provider_id, dialect, view.route_shape, view.model.default, view.provenance.plugin];
}

/** A plain left-aligned table: two spaces between columns, no colour, safe for any terminal width. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}
