import { jsonText } from '../canonical/json-text.js';
import { isSealed } from '../canonical/sealed-json.js';
import { SmallLru } from '../canonical/small-lru.js';
import type { ToolGatesConfig } from '../config/cw-config.js';
import type { McpState } from '../snapshot/snapshot.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { sealedListKey } from '../tools/tool-catalog-sha256.js';
import type { ToolProjection } from '../tools/tool-projection-types.js';
import type { ToolFacts } from './manifest-schema.js';

// The manifest's tool facts are a pure function of the catalog, the config's tool gates, the tool
// surface a turn started from and its projection, and the MCP server count. An agent loop and an
// interactive session preview the same ones on every step, so they are worked out once per catalog
// and kept, frozen (docs/performance.md, "Work done once per process"): under the projection itself
// (a cached projection is sealed, and the same object for the same inputs) and the sealed catalogs'
// keys. A catalog with a tool that is not sealed, or a projection that is not, is worked out every time.
const PER_PROJECTION = 4;
const kept = new WeakMap<ToolProjection, SmallLru<string, ToolFacts>>();
let computed = 0;

/** What the tool facts are worked out from. */
export interface ToolFactsInputs {
  readonly catalog: readonly ToolDefinition[];
  readonly gates: ToolGatesConfig | undefined;
  readonly activeTools: readonly ToolDefinition[];
  readonly deferredTools: readonly ToolDefinition[];
  readonly projection: ToolProjection;
  readonly mcp: McpState;
}

/** `compute(inputs)`, from memory when the same inputs were seen before in this process. */
export function cachedToolFacts(inputs: ToolFactsInputs, compute: (inputs: ToolFactsInputs) => ToolFacts): ToolFacts {
  const key = factsKey(inputs);
  if (key === null) {
    computed += 1;
    return compute(inputs);
  }
  let facts = kept.get(inputs.projection);
  if (facts === undefined) {
    facts = new SmallLru<string, ToolFacts>(PER_PROJECTION);
    kept.set(inputs.projection, facts);
  }
  const known = facts.get(key);
  if (known !== undefined) return known;
  computed += 1;
  const fresh = deepFreeze(compute(inputs));
  facts.set(key, fresh);
  return fresh;
}

/** How many tool facts were worked out rather than found in memory, for the tests that check the cache. */
export function toolFactsComputed(): number {
  return computed;
}

function factsKey(inputs: ToolFactsInputs): string | null {
  if (!isSealed(inputs.projection)) return null;
  const catalog = sealedListKey(inputs.catalog);
  const active = sealedListKey(inputs.activeTools);
  const deferred = sealedListKey(inputs.deferredTools);
  if (catalog === null || active === null || deferred === null) return null;
  const mcp = inputs.mcp.kind === 'snapshot' ? inputs.mcp.serverCount : -1;
  // jsonText, not JSON.stringify: the same text, without native stringify's cost after a collection.
  return `${catalog}|${active}|${deferred}|${mcp}|${jsonText(inputs.gates ?? null)}`;
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
