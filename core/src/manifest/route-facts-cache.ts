import { jsonText } from '../canonical/json-text.js';
import { isSealed } from '../canonical/sealed-json.js';
import { SmallLru } from '../canonical/small-lru.js';
import type { PreparedOutboundRequest } from '../prepare-outbound-request.js';
import type { RouteFacts } from './manifest-schema.js';

// The manifest's route facts redact the row's names, fingerprint the endpoint and label the headers: a
// pure function of the row and of a few facts of the prepared request. A resolved row is kept sealed
// (route/checked-route-row.ts), the same object on every step of a loop, so the facts are worked out
// once per row and those facts, and kept frozen (docs/performance.md, "Route facts per row"). A row
// that is not sealed is worked out every time.
const PER_ROW = 4;
const kept = new WeakMap<object, SmallLru<string, RouteFacts>>();
let computed = 0;

/** `compute(prepared)`, from memory when the same row and request facts were seen before in this process. */
export function cachedRouteFacts(
  prepared: PreparedOutboundRequest,
  compute: (prepared: PreparedOutboundRequest) => RouteFacts,
): RouteFacts {
  const { row } = prepared.route;
  if (!isSealed(row)) {
    computed += 1;
    return compute(prepared);
  }
  let facts = kept.get(row);
  if (facts === undefined) {
    facts = new SmallLru<string, RouteFacts>(PER_ROW);
    kept.set(row, facts);
  }
  const key = factsKey(prepared);
  const known = facts.get(key);
  if (known !== undefined) return known;
  computed += 1;
  const fresh = deepFreeze(compute(prepared));
  facts.set(key, fresh);
  return fresh;
}

/** How many route facts were worked out rather than found in memory, for the tests that check the cache. */
export function routeFactsComputed(): number {
  return computed;
}

/** Everything the route facts read besides the row. */
function factsKey(prepared: PreparedOutboundRequest): string {
  // jsonText, not JSON.stringify: the same text, without native stringify's cost after a collection.
  return jsonText([
    prepared.route.definedBy,
    prepared.route.modelFacts?.match?.by ?? null,
    prepared.dialect,
    prepared.routeShape,
    prepared.url,
    prepared.wireModel,
    prepared.entrypoint,
    prepared.layout.streamField,
    prepared.apiKeyEnv,
    prepared.headers,
  ]);
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
