import type { TurnUsage } from '../reply/turn-events.js';
import type { TotalUsage } from './agent-events.js';

/** Usage summed over the steps that reported it. */
export function totalUsage(usages: readonly (TurnUsage | null)[]): TotalUsage {
  let input = 0;
  let output = 0;
  let without = 0;
  for (const usage of usages) {
    if (usage === null) without += 1;
    else {
      input += usage.input_tokens;
      output += usage.output_tokens;
    }
  }
  return { input_tokens: input, output_tokens: output, steps_without_usage: without };
}
