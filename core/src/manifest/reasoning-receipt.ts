import type { JsonValue } from '../canonical/canonical-json.js';
import type { BodyLayout, ReasoningPlan, WireBody } from '../body/wire-body.js';

/** What the finished body says about reasoning, read off the JSON rather than inferred from the request. */
export interface ReasoningReceipt {
  readonly controlKeys: readonly string[];
  readonly effort: string | null;
  /** A constant key path (`reasoning_effort`, `thinking.effort`, ...), never a key lifted from the body. */
  readonly effortSource: string | null;
  readonly budgetTokens: number | null;
  readonly resolution: 'explicit' | 'route-default' | 'not-applicable';
}

// `include` discloses reasoning output; on its own it does not ask the model to reason.
const DISCLOSURE_ONLY_KEYS = new Set(['include']);

/** Reads the reasoning control from the body using the dialect's key list. */
export function reasoningReceipt(body: WireBody, layout: BodyLayout, plan: ReasoningPlan | null): ReasoningReceipt {
  const controlKeys = layout.reasoningKeys.filter((key) => body[key] !== undefined);
  let effort: string | null = null;
  let effortSource: string | null = null;
  let budgetTokens: number | null = null;
  const flat = body['reasoning_effort'];
  if (typeof flat === 'string') {
    effort = flat;
    effortSource = 'reasoning_effort';
  }
  for (const key of controlKeys) {
    const value = body[key];
    if (!isObject(value)) continue;
    if (effort === null && typeof value['effort'] === 'string') {
      effort = value['effort'];
      effortSource = `${key}.effort`;
    }
    if (budgetTokens === null && typeof value['budget_tokens'] === 'number') budgetTokens = value['budget_tokens'];
  }
  // Anthropic's adaptive routes put effort beside thinking, under output_config, which is already on the list.
  const controls = controlKeys.some((key) => !DISCLOSURE_ONLY_KEYS.has(key));
  const resolution = !controls ? 'not-applicable' : plan?.origin === 'explicit' ? 'explicit' : 'route-default';
  return { controlKeys, effort, effortSource, budgetTokens, resolution };
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
