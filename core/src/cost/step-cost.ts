import type { CapabilityRowData } from '../route/capability-row.js';
import { type ModelPrice, priceFor } from '../route/model-price.js';
import type { CostReason, InputCostReason } from '../plan/unavailable-reason.js';
import type { TurnUsage } from '../reply/turn-events.js';

// Money is computed in integers: a price (USD per million tokens, at most six decimals) is scaled to
// millionths, so tokens × scaled price is an exact count of 10^-12 USD. Each step is then rounded
// half up to the micro-dollar once, and turns and sessions add those micro-dollars, so a total is
// exactly the sum of the steps shown (docs/cli.md, "Cost").

/** A cost in USD, or null with the reason it is unknown. */
export type Cost = { readonly usd: number } | { readonly usd: null; readonly reason: CostReason };

/** What a step on a route is priced by: the model's price row, or why there is none. */
export type PriceBasis =
  | { readonly kind: 'priced'; readonly price: ModelPrice }
  | { readonly kind: 'unpriced'; readonly reason: InputCostReason };

const PICO_PER_MICRO = 1_000_000n;

/** The price a route's row gives its model; a local or subscription route without one is not metered. */
export function priceBasisOf(
  row: Pick<CapabilityRowData, 'prices' | 'billing'>,
  model: string,
  wireModel: string,
): PriceBasis {
  const price = priceFor(row.prices, model, wireModel);
  if (price !== null) return { kind: 'priced', price };
  const metered = row.billing.kind === 'metered' || row.billing.kind === 'unknown';
  return { kind: 'unpriced', reason: metered ? 'no-published-price' : 'route-not-metered' };
}

/** A price in millionths of a USD per million tokens: 10^-12 USD per token, an exact integer. */
function scaled(price: number): bigint {
  return BigInt(Math.round(price * 1_000_000));
}

/** Rounds 10^-12 USD half up to whole micro-dollars. */
function microsOf(pico: bigint): number {
  return Number((pico + PICO_PER_MICRO / 2n) / PICO_PER_MICRO);
}

/** A whole number of micro-dollars as USD. */
function usdOf(micros: number): Cost {
  return { usd: micros / 1_000_000 };
}

/** The micro-dollars of a known cost. */
export function microsOfCost(cost: { readonly usd: number }): number {
  return Math.round(cost.usd * 1_000_000);
}

/** What one request cost, from its price and the usage its provider reported. */
export function stepCost(basis: PriceBasis, usage: TurnUsage | null): Cost {
  if (basis.kind === 'unpriced') return { usd: null, reason: basis.reason };
  if (usage === null) return { usd: null, reason: 'usage-not-reported' };
  const cacheRead = usage.cache_read_tokens ?? 0;
  const cacheWrite = usage.cache_write_tokens ?? 0;
  const uncached = usage.input_tokens - cacheRead - cacheWrite;
  if (uncached < 0) return { usd: null, reason: 'usage-inconsistent' };
  const rates = basis.price.usd_per_mtok;
  const parts: readonly (readonly [number, number | null])[] = [
    [uncached, rates.input],
    [cacheRead, rates.cache_read],
    [cacheWrite, rates.cache_write],
    [usage.output_tokens, rates.output],
  ];
  let pico = 0n;
  for (const [tokens, rate] of parts) {
    if (tokens === 0) continue;
    if (rate === null) return { usd: null, reason: 'price-incomplete' };
    pico += BigInt(tokens) * scaled(rate);
  }
  return usdOf(microsOf(pico));
}

/** The USD of a number of input tokens at an input price (USD per million tokens), to the micro-dollar. */
export function inputCostUsd(usdPerMillion: number, inputTokens: number): number {
  return microsOf(BigInt(inputTokens) * scaled(usdPerMillion)) / 1_000_000;
}

/** The sum of several costs: unknown, with the first unknown one's reason, when any is unknown. */
export function sumCosts(costs: readonly Cost[]): Cost {
  let micros = 0;
  for (const cost of costs) {
    if (cost.usd === null) return cost;
    micros += microsOfCost(cost);
  }
  return usdOf(micros);
}

/** A running total over steps: what the known ones add up to, and how many were unknown. */
export interface CostTotal {
  readonly usd: number;
  readonly steps_without_cost: number;
}

/** Adds known costs and counts the unknown ones, for a session's running total. */
export function totalCost(costs: readonly (Cost | null)[]): CostTotal {
  let micros = 0;
  let unknown = 0;
  for (const cost of costs) {
    if (cost === null || cost.usd === null) unknown += 1;
    else micros += microsOfCost(cost);
  }
  return { usd: micros / 1_000_000, steps_without_cost: unknown };
}
