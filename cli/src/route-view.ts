import type { CapabilityRow, JsonValue } from '@cw/core';
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
  readonly provenance: { readonly plugin: string; readonly source: string };
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
    provenance: { plugin: core.safePackageName(row.plugin), source: core.safePhrase(row.provenance.source) },
  };
}

/** The columns of the `cw routes` table, in order. */
export const ROUTE_COLUMNS = ['ROUTE', 'PROVIDER', 'DIALECT', 'SHAPE', 'DEFAULT MODEL', 'PLUGIN'] as const;

/** One table line's cells for a row view. */
export function routeCells(view: RouteView): readonly string[] {
  return [view.route_id, view.provider_id, view.dialect, view.route_shape, view.model.default, view.provenance.plugin];
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
