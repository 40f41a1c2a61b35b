import { isSealed, sealJson } from '../canonical/sealed-json.js';
import { SmallLru } from '../canonical/small-lru.js';
import { sealedListKey, toolCatalogSha256 } from './tool-catalog-sha256.js';
import type { ToolDefinition } from './tool-definition.js';
import type { ProjectionContext, ToolProjection } from './tool-projection-types.js';

// Projection is a pure function of its context, and the same catalog goes to the same route on every
// step of an agent loop and every turn of an interactive session. So a result is kept, sealed (deep
// frozen: no caller can change what the next one gets), under everything it reads: the whole
// capability row's JSON text, both tool lists' catalog digests, the tool choice and whether reasoning is on
// (docs/performance.md, "Work done once per process").
const CAPACITY = 8;
const results = new SmallLru<string, ToolProjection>(CAPACITY);
let computed = 0;
// A sealed row (route/checked-route-row.ts) cannot change, so its text is written once.
const sealedRowTexts = new WeakMap<object, string | undefined>();

/** The projection of `context`, from the cache when the same inputs were projected before in this process. */
export function cachedProjection(
  context: ProjectionContext,
  project: (context: ProjectionContext) => ToolProjection,
): ToolProjection {
  const byInputs = identityEntry(context);
  const same = byInputs?.map.get(byInputs.key);
  if (same !== undefined) return same;
  const key = projectionKey(context);
  const known = key === null ? undefined : results.get(key);
  if (known !== undefined) {
    byInputs?.map.set(byInputs.key, known);
    return known;
  }
  const projection = project(context);
  computed += 1;
  if (key === null) return projection;
  const sealed = sealJson(projection);
  // A projection that is not plain data (a schema holding something JSON cannot) is used once, not kept.
  if (sealed === undefined) return projection;
  results.set(key, sealed);
  byInputs?.map.set(byInputs.key, sealed);
  return sealed;
}

// The same inputs by identity: a sealed row and frozen lists of sealed tools (a kept tool surface) cannot
// change, so an agent loop's next step finds its projection without writing the row's text into a key.
let byIdentity = new WeakMap<object, WeakMap<object, WeakMap<object, Map<string, ToolProjection>>>>();
const NO_TOOLS: readonly ToolDefinition[] = Object.freeze([]);

/** Where the projection of these exact inputs is kept by identity; null when an input could change. */
function identityEntry(context: ProjectionContext): { map: Map<string, ToolProjection>; key: string } | null {
  const { row, tools, toolChoice } = context;
  const deferred = context.deferredTools ?? NO_TOOLS;
  if (typeof toolChoice !== 'string' || !isSealed(row) || !frozenSealedList(tools) || !frozenSealedList(deferred))
    return null;
  let byTools = byIdentity.get(row);
  if (byTools === undefined) {
    byTools = new WeakMap();
    byIdentity.set(row, byTools);
  }
  let byDeferred = byTools.get(tools);
  if (byDeferred === undefined) {
    byDeferred = new WeakMap();
    byTools.set(tools, byDeferred);
  }
  let map = byDeferred.get(deferred);
  if (map === undefined) {
    map = new Map();
    byDeferred.set(deferred, map);
  }
  return { map, key: `${toolChoice}\u0000${context.reasoningActive ? 'reasoning' : 'plain'}` };
}

function frozenSealedList(tools: readonly ToolDefinition[]): boolean {
  return Object.isFrozen(tools) && sealedListKey(tools) !== null;
}

/** How many projections were computed rather than reused, for the tests that check the cache. */
export function projectionsComputed(): number {
  return computed;
}

/** Empties the cache (tests compare cold and warm results). */
export function clearProjectionCache(): void {
  results.clear();
  byIdentity = new WeakMap();
}

function projectionKey(context: ProjectionContext): string | null {
  const row = rowText(context.row);
  // A tool choice is mostly a word ('auto'): written as it is, without the replacer's walk.
  const choice =
    typeof context.toolChoice === 'string' ? JSON.stringify(context.toolChoice) : stableText(context.toolChoice);
  if (row === undefined || choice === undefined) return null;
  return [
    row,
    toolCatalogSha256(context.tools),
    toolCatalogSha256(context.deferredTools ?? []),
    choice,
    context.reasoningActive ? 'reasoning' : 'plain',
  ].join('\n');
}

function rowText(row: ProjectionContext['row']): string | undefined {
  if (!isSealed(row)) return stableText(row);
  if (sealedRowTexts.has(row)) return sealedRowTexts.get(row);
  const text = stableText(row);
  sealedRowTexts.set(row, text);
  return text;
}

/** JSON text that says everything projection reads of a value; undefined when JSON text cannot. */
function stableText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, (_key, member: unknown) => {
      if (typeof member === 'number' && !Number.isFinite(member)) throw UNSTABLE;
      if (typeof member === 'object' && member !== null && !Array.isArray(member)) {
        const prototype = Object.getPrototypeOf(member);
        if (prototype !== Object.prototype && prototype !== null) throw UNSTABLE;
      } else if (typeof member === 'function' || typeof member === 'symbol' || typeof member === 'bigint') {
        throw UNSTABLE;
      }
      return member;
    });
  } catch (signal) {
    if (signal === UNSTABLE) return undefined;
    throw signal;
  }
}

const UNSTABLE = Symbol('not stable as JSON');
