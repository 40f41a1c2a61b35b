import { describe, expect, it } from 'vitest';
import type { CwSnapshot } from '../snapshot/snapshot.js';
import type { CoreTurnHooks, CoreTurnTypes } from '../turn/core-turn-types.js';
import { GOAL_STAGE } from '../features/goal/goal-feature.js';
import { TURN_STAGES, TurnHooks } from '../turn/turn-hooks.js';
import { pluginTurnHooks } from './plugin-turn-hooks.js';

const snapshot = { features: {} } as unknown as CwSnapshot;

describe('pluginTurnHooks', () => {
  it('names every tap after the plugin and puts a stageless gate after the built-in ones', () => {
    const turn: CoreTurnHooks = new TurnHooks<CoreTurnTypes>();
    turn.gate.tap({ name: 'goal', stage: GOAL_STAGE }, () => undefined);
    const hooks = pluginTurnHooks(turn, 'cw-acme', () => false);
    hooks.gate.tap('pretending-to-be-goal', () => undefined);
    hooks.gate.tap({ name: 'early', stage: 50 }, () => undefined);
    expect(turn.gate.taps.map((tap) => [tap.name, tap.stage])).toEqual([
      ['cw-acme', 50],
      ['goal', GOAL_STAGE],
      ['cw-acme', TURN_STAGES.plugin],
    ]);
  });

  it("turns a plugin's stop into blocked-by-plugin-gate with its name and a redacted detail", () => {
    const turn: CoreTurnHooks = new TurnHooks<CoreTurnTypes>();
    pluginTurnHooks(turn, 'cw-acme', () => false).gate.tap('x', () => ({
      detail: 'quota file /home/someone/.acme/quota.json says no; key sk-test-00000000000000000000000000000000',
      remedy: 'ask an admin',
    }));
    const stop = turn.gate.call({ snapshot, input: 'prompt', phase: 'plan' });
    expect(stop?.reason).toBe('blocked-by-plugin-gate');
    expect(stop?.detail).toMatch(/^cw-acme: quota file /);
    expect(stop?.detail).not.toContain('/home/someone');
    expect(stop?.detail).not.toContain('sk-test-0000');
    expect(stop?.remedy).toBe('ask an admin');
  });

  it('passes input through once the plugin is withdrawn', async () => {
    const turn: CoreTurnHooks = new TurnHooks<CoreTurnTypes>();
    let withdrawn = false;
    const hooks = pluginTurnHooks(turn, 'cw-acme', () => withdrawn);
    hooks.gate.tap('x', () => ({ detail: 'no' }));
    hooks.afterRequest.tapPromise('x', async (current) => ({ ...current, features: { 'cw-acme': 1 } }));
    expect(turn.gate.call({ snapshot, input: 'prompt', phase: 'plan' })?.reason).toBe('blocked-by-plugin-gate');
    withdrawn = true;
    expect(turn.gate.call({ snapshot, input: 'prompt', phase: 'plan' })).toBeUndefined();
    const after = await turn.afterRequest.promise(snapshot, {} as never);
    expect(after).toBe(snapshot);
  });
});
