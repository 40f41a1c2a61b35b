import { describe, expect, it } from 'vitest';
import { applyTurnFeatures } from '../features/apply-turn-features.js';
import type { CoreTurnTypes } from './core-turn-types.js';
import { TurnHooks } from './turn-hooks.js';

describe('the notice kinds', () => {
  const notices = () => {
    const hooks = new TurnHooks<CoreTurnTypes>();
    applyTurnFeatures(hooks);
    return hooks.notices;
  };

  it("show each built-in notice in its registration's words, identifiers made safe", () => {
    const table = notices();
    expect(table.show({ kind: 'auto-route', route: 'deepseek' })).toEqual({
      kind: 'auto-route',
      fields: { route: 'deepseek' },
      text: 'auto routing chose route deepseek',
    });
    expect(table.show({ kind: 'auto-route', route: '/home/someone/secret' }).text).not.toContain('/home/someone');
    expect(table.show({ kind: 'compaction', summarised: 12, kept: 4 }).text).toBe(
      'compacted the session: 12 earlier messages replaced by a summary (docs/compaction.md)',
    );
    expect(table.show({ kind: 'progress', tool: 'slow_tool', text: '3/10' }).text).toBe('▸ slow_tool progress 3/10');
    expect(table.show({ kind: 'session-wait' }).text).toBe('waiting for another cw send on this session to finish');
    expect(table.get('compaction')?.registeredBy).toBe('compaction');
    expect(table.get('warning')?.registeredBy).toBe('cw');
  });

  it('check a notice against its registration', () => {
    const table = notices();
    expect(table.defect({ kind: 'compaction', summarised: 12, kept: 4 })).toBeNull();
    expect(table.defect({ kind: 'compaction', summarised: 1.5, kept: 4 })).toBe(
      'notice compaction needs field summarised of type integer',
    );
    expect(table.defect({ kind: 'session-wait', extra: true })).toBe('notice session-wait has no field extra');
    expect(table.defect({ kind: 'nobody:made-this' })).toBe('notice kind nobody:made-this is not registered');
    expect(table.show({ kind: 'nobody:made-this' }).fields).toEqual({});
  });
});
