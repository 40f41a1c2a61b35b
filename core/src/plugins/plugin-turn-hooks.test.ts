import { describe, expect, it } from 'vitest';
import type { CwSnapshot } from '../snapshot/snapshot.js';
import type { CoreTurnHooks, CoreTurnTypes } from '../turn/core-turn-types.js';
import { GOAL_STAGE } from '../features/goal/goal-feature.js';
import { TURN_STAGES, TurnHooks } from '../turn/turn-hooks.js';
import { turnHooksOf } from '../turn/core-turn-types.js';
import type { PrepareContext } from '../turn/turn-hooks.js';
import type { TurnNotice } from '../turn/notice-kinds.js';
import { PluginRegistry } from './plugin-registry.js';
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

describe("a plugin's notice kinds and gate reasons", () => {
  const quota = (registry: PluginRegistry) => {
    const api = registry.apiFor('cw-quota');
    const kind = api.addNoticeKind({
      name: 'quota-used',
      description: 'A turn was counted.',
      fields: {
        used: { type: 'integer', description: 'Turns so far.' },
        note: { type: 'text', description: 'Words.' },
      },
      text: ({ used, note }) => `turn ${String(used)}: ${String(note)}`,
    });
    const reason = api.addGateReason({ name: 'quota-spent', label: 'the quota is used up' });
    return { api, kind, reason };
  };

  it('registers them under the package name, with the words a person reads', () => {
    const registry = new PluginRegistry();
    const { kind, reason } = quota(registry);
    expect([kind, reason]).toEqual(['cw-quota:quota-used', 'cw-quota:quota-spent']);
    const turn = turnHooksOf(registry);
    expect(turn.reasons.get('cw-quota:quota-spent')).toMatchObject({
      label: 'the quota is used up',
      places: ['route', 'tools', 'body'],
      registeredBy: 'cw-quota',
    });
    expect(turn.notices.get('cw-quota:quota-used')?.registeredBy).toBe('cw-quota');
    expect(registry.problems).toEqual([]);
  });

  it('refuses a malformed or taken name as a load problem, and keeps the first', () => {
    const registry = new PluginRegistry();
    quota(registry);
    const again = quota(registry);
    expect([again.kind, again.reason]).toEqual([null, null]);
    const api = registry.apiFor('cw-other');
    expect(api.addGateReason({ name: 'Not A Label', label: 'x' })).toBeNull();
    expect(
      api.addNoticeKind({
        name: 'bad-field',
        description: 'x',
        fields: { kind: { type: 'text', description: 'x' } },
        text: () => '',
      }),
    ).toBeNull();
    expect(registry.problems.map((problem) => [problem.plugin, problem.code])).toEqual([
      ['cw-quota', 'invalid-notice-kind'],
      ['cw-quota', 'invalid-gate-reason'],
      ['cw-other', 'invalid-gate-reason'],
      ['cw-other', 'invalid-notice-kind'],
    ]);
  });

  it("a gate stops with the plugin's own reason and a redacted detail; another package's reason is not its to give", () => {
    const registry = new PluginRegistry();
    const { api } = quota(registry);
    api.hooks.turn.gate.tap('x', () => ({
      reason: 'quota-spent',
      detail: 'see /home/someone/quota.json',
      remedy: 'raise it',
    }));
    const turn = turnHooksOf(registry);
    const stop = turn.gate.call({ snapshot, input: 'prompt', phase: 'plan' });
    expect(stop?.reason).toBe('cw-quota:quota-spent');
    expect(stop?.detail).toMatch(/^see /);
    expect(stop?.detail).not.toContain('/home/someone');
    expect(stop?.remedy).toBe('raise it');

    const other = new PluginRegistry();
    quota(other);
    other
      .apiFor('cw-borrower')
      .hooks.turn.gate.tap('x', () => ({ reason: 'cw-quota:quota-spent', detail: 'not mine' }));
    expect(turnHooksOf(other).gate.call({ snapshot, input: 'prompt', phase: 'plan' })).toEqual({
      reason: 'blocked-by-plugin-gate',
      detail: 'cw-borrower: not mine',
    });
  });

  it('sends notices of its own kinds, namespaced, checked and redacted; any other fails the turn closed', async () => {
    const registry = new PluginRegistry();
    const { api } = quota(registry);
    const sent: TurnNotice[] = [];
    const context = { mode: 'send', notify: (notice: TurnNotice) => sent.push(notice) } as unknown as PrepareContext;
    let next: TurnNotice = { kind: 'quota-used', used: 2, note: 'key sk-test-00000000000000000000000000000000' };
    api.hooks.turn.prepareTurn.tapPromise('x', async (draft, prepare) => {
      prepare.notify?.(next);
      return draft;
    });
    const turn = turnHooksOf(registry);
    const draft = { snapshot, prompt: 'hi' };
    await turn.prepareTurn.promise(draft, context);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.kind).toBe('cw-quota:quota-used');
    expect(sent[0]?.['used']).toBe(2);
    expect(String(sent[0]?.['note'])).not.toContain('sk-test-0000');
    expect(turn.notices.show(sent[0] as TurnNotice).text).toMatch(/^turn 2: key /);

    next = { kind: 'quota-used', used: 'two', note: 'x' };
    await expect(turn.prepareTurn.promise(draft, context)).rejects.toThrow(/needs field used of type integer/);
    next = { kind: 'warning', text: 'pretending to be cw' };
    await expect(turn.prepareTurn.promise(draft, context)).rejects.toThrow(/did not register/);
    expect(sent).toHaveLength(1);
  });
});
