import type { CapabilityRow } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { markCacheBreakpoints, type Block, type Turn } from './anthropic-cache-breakpoints.js';

type Cache = NonNullable<CapabilityRow['prompt_cache']>;

const cache = (overrides: Partial<Cache>): Cache => ({
  breakpoints: ['tools', 'system', 'conversation-tail'],
  tail_turns: 1,
  max_breakpoints: 4,
  key_field: null,
  ...overrides,
});

function fixture(): { tools: Block[]; turns: Turn[] } {
  return {
    tools: [{ name: 'a' }, { name: 'b' }],
    turns: [
      { role: 'user', content: [{ type: 'text', text: 'one' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'a', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      { role: 'user', content: [{ type: 'text', text: 'two' }] },
    ],
  };
}

const EPHEMERAL = { type: 'ephemeral' };

describe('markCacheBreakpoints', () => {
  it('marks the last tool, the system prompt and the latest user turns, in render order', () => {
    const { tools, turns } = fixture();
    const marks = markCacheBreakpoints(cache({ tail_turns: 2 }), tools, 'sys', turns);
    expect(tools.map((tool) => tool['cache_control'])).toEqual([undefined, EPHEMERAL]);
    expect(marks.system).toEqual([{ type: 'text', text: 'sys', cache_control: EPHEMERAL }]);
    expect([...marks.markedTurns]).toEqual([2, 4]);
    expect(turns[2]?.content[0]?.['cache_control']).toEqual(EPHEMERAL);
    expect(turns[0]?.content[0]?.['cache_control']).toBeUndefined();
  });

  it('never places more than the limit: the earliest are dropped first', () => {
    const { tools, turns } = fixture();
    const marks = markCacheBreakpoints(cache({ tail_turns: 3, max_breakpoints: 4 }), tools, 'sys', turns);
    // Five candidates (tools, system, three user turns): the tools breakpoint goes.
    expect(tools.some((tool) => tool['cache_control'] !== undefined)).toBe(false);
    expect(marks.system).not.toBe('sys');
    expect([...marks.markedTurns]).toEqual([0, 2, 4]);
    const two = fixture();
    const tight = markCacheBreakpoints(cache({ tail_turns: 2, max_breakpoints: 2 }), two.tools, 'sys', two.turns);
    expect(tight.system).toBe('sys');
    expect([...tight.markedTurns]).toEqual([2, 4]);
  });

  it('marks nothing without a row declaration, and skips what cannot carry a breakpoint', () => {
    const { tools, turns } = fixture();
    expect(markCacheBreakpoints(null, tools, 'sys', turns)).toEqual({ system: 'sys', markedTurns: new Set() });
    expect(JSON.stringify([tools, turns])).not.toContain('cache_control');
    const empty: Turn[] = [{ role: 'user', content: [{ type: 'text', text: '' }] }];
    const marks = markCacheBreakpoints(cache({}), [], '', empty);
    expect(marks).toEqual({ system: '', markedTurns: new Set() });
  });
});
