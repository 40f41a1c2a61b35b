import type { AgentEvent, SentTurn } from '@cw/core';

/** Reads a turn's events to the end, handing each to `seen`, and returns the turn's outcome. */
export async function readTurn(
  turn: AsyncGenerator<AgentEvent, SentTurn, undefined>,
  seen: (event: AgentEvent) => void,
): Promise<SentTurn> {
  for (;;) {
    const next = await turn.next();
    if (next.done === true) return next.value;
    seen(next.value);
  }
}
