import type { Cost, CostTotal, TotalUsage } from '@cw/core';
import { moneyParts } from './cost-text.js';

/**
 * The line `cw send` ends a turn with on a terminal: tokens in and out, summed over every request,
 * then what the turn cost and the session's running total when they are given.
 */
export function usageLine(
  usage: TotalUsage,
  requests: number,
  money?: { readonly cost: Cost; readonly session_cost: CostTotal },
): string {
  const over = requests === 1 ? '1 request' : `${requests} requests`;
  const unknown =
    usage.steps_without_usage === 0
      ? ''
      : `; ${usage.steps_without_usage} reported no usage and ${usage.steps_without_usage === 1 ? 'is' : 'are'} not counted`;
  const [cost, session] = money === undefined ? [] : moneyParts(money);
  const spent = cost === undefined ? '' : `; ${cost}${session === undefined ? '' : ` (${session})`}`;
  return `cw: usage: ${usage.input_tokens} input tokens, ${usage.output_tokens} output tokens over ${over}${unknown}${spent}\n`;
}
