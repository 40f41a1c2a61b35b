import type { TotalUsage } from '@cw/core';

/** The line `cw send` ends a turn with on a terminal: tokens in and out, summed over every request. */
export function usageLine(usage: TotalUsage, requests: number): string {
  const over = requests === 1 ? '1 request' : `${requests} requests`;
  const unknown =
    usage.steps_without_usage === 0
      ? ''
      : `; ${usage.steps_without_usage} reported no usage and ${usage.steps_without_usage === 1 ? 'is' : 'are'} not counted`;
  return `cw: usage: ${usage.input_tokens} input tokens, ${usage.output_tokens} output tokens over ${over}${unknown}\n`;
}
