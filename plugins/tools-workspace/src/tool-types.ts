import type { ToolOutcome } from '@cw/core/plugin';

export type { ToolArguments, ToolContext, ToolImplementation, ToolLimits, ToolOutcome } from '@cw/core/plugin';

/** A successful outcome. */
export function ok(content: string): ToolOutcome {
  return { status: 'ok', content };
}

/** A failed outcome whose message tells the model what to do differently. */
export function fail(content: string): ToolOutcome {
  return { status: 'error', content };
}
