import type { ConversationMessage } from '../prompt/conversation.js';
import { type Cost, type CostTotal, totalCost } from './step-cost.js';

/** The session's running total: the costs stored with its earlier replies, then this turn's steps. */
export function sessionCost(
  earlier: readonly ConversationMessage[],
  steps: readonly { readonly cost: Cost }[],
): CostTotal {
  const stored = earlier.flatMap((message): (Cost | null)[] =>
    message.role !== 'assistant' ? [] : [message.cost_usd === undefined ? null : { usd: message.cost_usd }],
  );
  return totalCost([...stored, ...steps.map((step) => step.cost)]);
}
