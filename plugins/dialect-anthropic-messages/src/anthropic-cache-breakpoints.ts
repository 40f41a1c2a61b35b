import type { CapabilityRow, JsonValue } from '@cw/core/plugin';

/** A content block or tool declaration under construction. */
export type Block = { [key: string]: JsonValue };
/** A Messages turn under construction, before a lone text block collapses to a string. */
export type Turn = { role: 'user' | 'assistant'; content: Block[] };

/** Where breakpoints were placed: the system value to send, and the turns that carry one. */
export interface CacheMarks {
  /** The system prompt as a string, or as one marked text block when the system region has a breakpoint. */
  readonly system: JsonValue;
  /** Indexes of turns whose last block carries a breakpoint (they keep their block form). */
  readonly markedTurns: ReadonlySet<number>;
}

const EPHEMERAL: JsonValue = { type: 'ephemeral' };

type Candidate = { readonly region: 'tools' } | { readonly region: 'system' } | { readonly turn: number };

/**
 * Places `cache_control` breakpoints where the row's `prompt_cache` says, in the order the provider
 * renders a request (tools, system, messages): after the last tool, on the system prompt, on the
 * last block of the latest `tail_turns` user turns. Each breakpoint caches everything before it, so
 * when there are more than `max_breakpoints`, the earliest are dropped: a later one covers them.
 */
export function markCacheBreakpoints(
  cache: CapabilityRow['prompt_cache'],
  tools: Block[],
  system: string,
  turns: Turn[],
): CacheMarks {
  const markedTurns = new Set<number>();
  if (cache === null) return { system, markedTurns };
  const candidates: Candidate[] = [];
  if (cache.breakpoints.includes('tools') && tools.length > 0) candidates.push({ region: 'tools' });
  if (cache.breakpoints.includes('system') && system !== '') candidates.push({ region: 'system' });
  if (cache.breakpoints.includes('conversation-tail')) {
    const tail: number[] = [];
    for (let index = turns.length - 1; index >= 0 && tail.length < cache.tail_turns; index--) {
      const turn = turns[index];
      if (turn?.role === 'user' && markable(turn.content.at(-1))) tail.unshift(index);
    }
    candidates.push(...tail.map((turn) => ({ turn })));
  }
  let marked: JsonValue = system;
  for (const candidate of candidates.slice(Math.max(0, candidates.length - cache.max_breakpoints))) {
    if ('turn' in candidate) {
      const block = turns[candidate.turn]?.content.at(-1);
      if (block) block['cache_control'] = EPHEMERAL;
      markedTurns.add(candidate.turn);
    } else if (candidate.region === 'tools') {
      const last = tools.at(-1);
      if (last) last['cache_control'] = EPHEMERAL;
    } else {
      marked = [{ type: 'text', text: system, cache_control: EPHEMERAL }];
    }
  }
  return { system: marked, markedTurns };
}

/** The API refuses a breakpoint on an empty text block and on thinking; text with content and tool results take one. */
function markable(block: Block | undefined): boolean {
  if (block === undefined) return false;
  if (block['type'] === 'text') return typeof block['text'] === 'string' && block['text'] !== '';
  return block['type'] === 'tool_result';
}
