import { jsonText } from '../canonical/json-text.js';
import { SmallLru } from '../canonical/small-lru.js';
import type { ToolGatesConfig } from '../config/cw-config.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { sealedListKey } from '../tools/tool-catalog-sha256.js';
import { deferCatalog, type DeferredCatalog } from './defer-catalog.js';
import { narrowCatalog, surfaceBudget } from './narrow-catalog.js';

// Every step of an agent loop and every turn of a session narrows and splits the same catalog for the
// same route. The split is a pure function of the sealed catalog, the gates, the route's tool limit,
// the tools earlier searches loaded and the MCP servers' order, so it is worked out once for them and
// kept, its lists frozen: the same lists for the same inputs, which what is derived from them (the
// projection's and the tool facts' keys) can then read by identity (docs/performance.md, "Tool
// surface per catalog"). A catalog holding a tool that is not sealed is split every time.
const CAPACITY = 8;
const kept = new SmallLru<string, DeferredCatalog>(CAPACITY);
// The newest surface of each catalog whose key could be made, with the key of the other inputs: the
// next step finds it by the catalog's identity, without writing the catalog's key again.
const newest = new WeakMap<readonly ToolDefinition[], { readonly others: string; readonly surface: DeferredCatalog }>();
let computed = 0;

/** What a turn's tool surface is split from. */
export interface ToolSurfaceInputs {
  readonly catalog: readonly ToolDefinition[];
  readonly gates: ToolGatesConfig | undefined;
  /** The route's tool limit (`tool_schema.max_tools`). */
  readonly maxTools: number | null;
  /** The tools earlier `search_tools` results loaded, earliest first. */
  readonly loaded: readonly string[];
  /** The configured MCP servers, in config order. */
  readonly serverOrder: readonly string[];
}

/**
 * The tools a turn's projection starts from and the ones kept back: the catalog narrowed by the
 * gates and the budget, the tools the budget keeps back, and the split of a catalog larger than the
 * route takes (catalog/defer-catalog.ts). From memory when the same inputs were split before.
 */
export function toolSurfaceFor(inputs: ToolSurfaceInputs): DeferredCatalog {
  const others = otherInputsKey(inputs);
  const latest = newest.get(inputs.catalog);
  if (latest !== undefined && latest.others === others) return latest.surface;
  const catalog = sealedListKey(inputs.catalog);
  // A catalog key has digits and commas only: no separator can be mistaken for part of it.
  const key = catalog === null ? null : `${catalog}\u0000${others}`;
  let surface = key === null ? undefined : kept.get(key);
  if (surface === undefined) {
    computed += 1;
    const split = splitSurface(inputs);
    if (key === null) return split;
    surface = Object.freeze({
      upFront: Object.freeze([...split.upFront]),
      deferred: Object.freeze([...split.deferred]),
      searchable: split.searchable,
    });
    kept.set(key, surface);
  }
  // Only a frozen list keeps the tools its key was made from.
  if (Object.isFrozen(inputs.catalog)) newest.set(inputs.catalog, { others, surface });
  return surface;
}

/** How many surfaces were split rather than found in memory, for the tests that check the cache. */
export function toolSurfacesComputed(): number {
  return computed;
}

/** Forgets every kept surface (tests compare cold and warm results). */
export function clearToolSurfaces(): void {
  kept.clear();
}

function splitSurface(inputs: ToolSurfaceInputs): DeferredCatalog {
  const { catalog, gates } = inputs;
  const { active: narrowed } = narrowCatalog(catalog, gates, surfaceBudget(gates));
  // Tools the gates let through but the budget keeps back: projected too, so tool search knows which it may offer.
  const upFront = new Set(narrowed);
  const configDeferred = narrowCatalog(catalog, gates, 'full').active.filter((tool) => !upFront.has(tool));
  return deferCatalog(narrowed, configDeferred, inputs.maxTools, inputs.loaded, inputs.serverOrder);
}

/** Everything the split reads besides the catalog. */
function otherInputsKey(inputs: ToolSurfaceInputs): string {
  // jsonText, not JSON.stringify: the same text, without native stringify's cost after a collection.
  return jsonText([inputs.gates ?? null, inputs.maxTools, inputs.loaded, inputs.serverOrder]);
}
