import { sealJson } from '../canonical/sealed-json.js';
import { SmallLru } from '../canonical/small-lru.js';
import { checksRecording, checkWith, exactJsonText, type CheckIssue } from '../validation/checked-values.js';
import { capabilityRowSchema, type CapabilityRow, type CapabilityRowData } from './capability-row.js';
import { resolveModelFacts, type ModelFacts } from './model-facts.js';

// An agent loop resolves its route on every step, and a tap answers with the same row each time: the
// row's two schema checks (as the tap answered it, and with the selected model's overrides) and the
// model's facts are a pure function of the row's JSON text and the model id. So they are worked out
// once per process and kept sealed (deep frozen): every caller gets the same row, which nothing can
// change, and what is derived from it (the projection cache's key) can be kept by identity
// (docs/performance.md, "Work done once per process"). A failed check is never kept: it always
// reaches the schema, which names the problem.
const CAPACITY = 16;
const kept = new SmallLru<string, KeptRow>(CAPACITY);
// Taps' whole answers (their plugin claim included), by their text, then by model.
const answeredRows = new SmallLru<string, Map<string, KeptRow>>(CAPACITY);
let checked = 0;

/** A row that passed both checks: the row as the tap answered it, and as the selected model resolves it. */
export interface CheckedRouteRow {
  readonly ok: true;
  readonly base: CapabilityRowData;
  readonly facts: Pick<ModelFacts<CapabilityRowData>, 'match' | 'provenance'>;
  /** The resolved row stamped with the plugin that serves it. */
  readonly rowFor: (plugin: string) => CapabilityRow;
}

/** Which check a row failed, with the schema's first problem (and the row, when only the model's failed). */
export type FailedRouteRow =
  | { readonly ok: false; readonly failed: 'row'; readonly issue: CheckIssue | undefined }
  | {
      readonly ok: false;
      readonly failed: 'model-row';
      readonly base: CapabilityRowData;
      readonly issue: CheckIssue | undefined;
    };

interface KeptRow extends CheckedRouteRow {
  readonly stamped: Map<string, CapabilityRow>;
}

/**
 * Checks a tap's row (without its `plugin` claim) and the row the selected model resolves it to,
 * from memory when the same row text and model were checked before in this process.
 */
export function checkRouteRow(data: unknown, model: string): CheckedRouteRow | FailedRouteRow {
  const text = checksRecording() ? undefined : exactJsonText(data);
  const key = text === undefined ? undefined : `${model}\u0000${text}`;
  const known = key === undefined ? undefined : kept.get(key);
  if (known !== undefined) return known;
  return checkAndKeep(data, model, key === undefined ? undefined : (entry) => kept.set(key, entry));
}

/**
 * The same for a tap's whole answer: the row is checked without its `plugin` claim, which is kept in
 * the key only, so an answer seen before is found without copying the row to drop the claim.
 */
export function checkAnsweredRow(
  answered: { readonly plugin?: unknown },
  model: string,
): CheckedRouteRow | FailedRouteRow {
  const text = checksRecording() ? undefined : exactJsonText(answered);
  // By the text first: a frozen answer's text is the same string every time, found without reading it.
  const byModel = text === undefined ? undefined : answeredRows.get(text);
  const known = byModel?.get(model);
  if (known !== undefined) return known;
  const { plugin: _claimed, ...data } = answered;
  return checkAndKeep(
    data,
    model,
    text === undefined
      ? undefined
      : (entry) => {
          const models = byModel ?? new Map<string, KeptRow>();
          if (models.size >= CAPACITY) models.clear();
          models.set(model, entry);
          answeredRows.set(text, models);
        },
  );
}

function checkAndKeep(
  data: unknown,
  model: string,
  keep: ((entry: KeptRow) => void) | undefined,
): CheckedRouteRow | FailedRouteRow {
  checked += 1;
  const base = checkWith('capability-row', capabilityRowSchema, data);
  if (!base.success) return { ok: false, failed: 'row', issue: base.error.issues[0] };
  const facts = resolveModelFacts(base.data, model);
  const effective = checkWith('capability-row', capabilityRowSchema, facts.row);
  if (!effective.success) return { ok: false, failed: 'model-row', base: base.data, issue: effective.error.issues[0] };
  const sealedBase = keep === undefined ? undefined : sealJson(base.data);
  const sealedRow = keep === undefined ? undefined : sealJson(effective.data);
  const sealedFacts = keep === undefined ? undefined : sealJson({ match: facts.match, provenance: facts.provenance });
  if (sealedBase === undefined || sealedRow === undefined || sealedFacts === undefined || keep === undefined) {
    // Not kept: each caller gets its own row, as the checks gave it.
    return {
      ok: true,
      base: base.data,
      facts: { match: facts.match, provenance: facts.provenance },
      rowFor: (plugin) => ({ ...effective.data, plugin }),
    };
  }
  const stamped = new Map<string, CapabilityRow>();
  const entry: KeptRow = {
    ok: true,
    base: sealedBase,
    facts: sealedFacts,
    stamped,
    rowFor: (plugin) => {
      let row = stamped.get(plugin);
      if (row === undefined) {
        row = sealJson({ ...sealedRow, plugin }) as CapabilityRow;
        stamped.set(plugin, row);
      }
      return row;
    },
  };
  keep(entry);
  return entry;
}

/** How many rows were checked rather than found in memory, for the tests that check the cache. */
export function routeRowsChecked(): number {
  return checked;
}

/** Forgets every kept row (tests compare cold and warm results). */
export function clearCheckedRouteRows(): void {
  kept.clear();
  answeredRows.clear();
}
