import type { Cost, CostTotal } from '@cw/core';

// Costs arrive as whole micro-dollars (docs/cli.md, "Cost"); they are printed from that integer, so
// no floating-point rounding reaches the screen.

/** Words for each reason a cost is unknown. */
const REASON_WORDS: Readonly<Record<Extract<Cost, { usd: null }>['reason'], string>> = {
  'route-not-metered': 'not billed per token',
  'no-published-price': 'no price for this model',
  'price-incomplete': 'price incomplete',
  'usage-not-reported': 'no usage reported',
  'usage-inconsistent': 'usage inconsistent',
};

/** An amount of USD for people: four decimals below a dollar, cents above, never a misleading `$0.0000`. */
export function usdText(usd: number): string {
  const micros = Math.round(usd * 1_000_000);
  if (micros === 0) return '$0.00';
  const tenThousandths = Math.floor((micros + 50) / 100);
  if (tenThousandths === 0) return '<$0.0001';
  if (tenThousandths < 10_000) return `$0.${String(tenThousandths).padStart(4, '0')}`;
  const cents = Math.floor((micros + 5_000) / 10_000);
  return `$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;
}

/** A cost, or why it is unknown. */
export function costText(cost: Cost): string {
  return cost.usd === null ? `cost unknown (${REASON_WORDS[cost.reason]})` : `cost ${usdText(cost.usd)}`;
}

/** The session's running total, and how many of its steps it could not price. */
export function sessionCostText(total: CostTotal): string {
  const unpriced = total.steps_without_cost === 0 ? '' : `, ${total.steps_without_cost} step(s) unpriced`;
  return `session ${usdText(total.usd)}${unpriced}`;
}

/**
 * What a usage line says about money: the turn's cost, then the session's running total; the total
 * is left out while no request of the session has a known cost, since it would only say $0.00.
 */
export function moneyParts(money: { readonly cost: Cost; readonly session_cost: CostTotal }): string[] {
  const nothingPriced = money.session_cost.usd === 0 && money.session_cost.steps_without_cost > 0;
  return nothingPriced ? [costText(money.cost)] : [costText(money.cost), sessionCostText(money.session_cost)];
}
