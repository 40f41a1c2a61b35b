import type { CapabilityRow, CapabilityRowData, ModelOverride } from './capability-row.js';

/** The row fields a model override may set: what the manifest and `cw routes` report provenance for. */
export const MODEL_FACT_FIELDS = [
  'dialect',
  'endpoint_path',
  'reasoning',
  'output_cap',
  'context',
  'tool_schema',
  'omit_body_keys',
  'tokenizer',
  'image_input',
  'prompt_cache',
] as const;

/** A fact a model override may set. */
export type ModelFactField = (typeof MODEL_FACT_FIELDS)[number];

/** How a model found its override: by an exact id or a pattern, on the id the user selected or the wire id. */
export interface ModelMatch {
  readonly by: 'id' | 'pattern';
  readonly on: 'selected' | 'wire';
  /** Index of the override in the row's `models` list. */
  readonly index: number;
}

/** A row resolved for one model: the facts that model gets, and where each one came from. */
export interface ModelFacts<Row extends CapabilityRowData = CapabilityRow> {
  readonly row: Row;
  readonly wireModel: string;
  /** Null when no override matched and every fact is the row's own. */
  readonly match: ModelMatch | null;
  /** For each fact an override may set: `model` when the matched override set it, else `row`. */
  readonly provenance: Readonly<Record<ModelFactField, 'row' | 'model'>>;
}

/** The id that goes on the wire for a model on this row: its alias target in `model.wire_map`, or itself. */
export function wireModelOf(row: Pick<CapabilityRowData, 'model'>, model: string): string {
  // Own keys only: a model id such as `constructor` must not find Object.prototype members.
  const map = row.model.wire_map;
  return Object.hasOwn(map, model) ? (map[model] as string) : model;
}

/**
 * Finds the override for a model. Order: an exact id beats a pattern, the id the user selected
 * beats its wire id (so an alias takes the facts of the model it stands for), and within one kind
 * the first override in the row wins.
 */
export function matchModelOverride(
  overrides: readonly ModelOverride[],
  selected: string,
  wire: string,
): ModelMatch | null {
  const candidates: readonly (readonly [ModelMatch['on'], string])[] =
    selected === wire
      ? [['selected', selected]]
      : [
          ['selected', selected],
          ['wire', wire],
        ];
  for (const [on, id] of candidates) {
    const index = overrides.findIndex((override) => override.match.ids.includes(id));
    if (index >= 0) return { by: 'id', on, index };
  }
  for (const [on, id] of candidates) {
    const index = overrides.findIndex(
      (override) => override.match.pattern !== undefined && new RegExp(`^(?:${override.match.pattern})$`, 'u').test(id),
    );
    if (index >= 0) return { by: 'pattern', on, index };
  }
  return null;
}

/**
 * Resolves a row for one model: the matched override's fields replace the row's (`output_cap` and
 * `context` key by key). Endpoint base URL, authentication and identity stay the row's, so a model
 * can never move a key to another host.
 */
export function resolveModelFacts<Row extends CapabilityRowData>(row: Row, selected: string): ModelFacts<Row> {
  const wireModel = wireModelOf(row, selected);
  const match = matchModelOverride(row.models, selected, wireModel);
  const override = match === null ? undefined : row.models[match.index];
  const provenance = Object.fromEntries(MODEL_FACT_FIELDS.map((field) => [field, 'row'])) as Record<
    ModelFactField,
    'row' | 'model'
  >;
  if (override === undefined) return { row, wireModel, match, provenance };
  const set = (field: ModelFactField, present: boolean): boolean => {
    if (present) provenance[field] = 'model';
    return present;
  };
  const resolved: Row = {
    ...row,
    ...(set('dialect', override.dialect !== undefined) ? { dialect: override.dialect } : {}),
    ...(set('endpoint_path', override.endpoint_path !== undefined)
      ? { endpoint: { ...row.endpoint, path: override.endpoint_path as string } }
      : {}),
    ...(set('reasoning', override.reasoning !== undefined) ? { reasoning: override.reasoning } : {}),
    ...(set('output_cap', override.output_cap !== undefined)
      ? { output_cap: { ...row.output_cap, ...definedOnly(override.output_cap ?? {}) } }
      : {}),
    ...(set('context', override.context !== undefined)
      ? { context: { ...row.context, ...definedOnly(override.context ?? {}) } }
      : {}),
    ...(set('tool_schema', override.tool_schema !== undefined) ? { tool_schema: override.tool_schema } : {}),
    ...(set('omit_body_keys', override.omit_body_keys !== undefined)
      ? { omit_body_keys: override.omit_body_keys }
      : {}),
    ...(set('tokenizer', override.tokenizer !== undefined) ? { tokenizer: override.tokenizer } : {}),
    ...(set('image_input', override.image_input !== undefined) ? { image_input: override.image_input } : {}),
    ...(set('prompt_cache', override.prompt_cache !== undefined) ? { prompt_cache: override.prompt_cache } : {}),
  };
  return { row: resolved, wireModel, match, provenance };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
