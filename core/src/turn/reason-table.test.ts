import { describe, expect, it } from 'vitest';
import { applyTurnFeatures } from '../features/apply-turn-features.js';
import { builtinReasonTable } from '../features/builtin-reason-table.js';
import type { CoreTurnTypes } from './core-turn-types.js';
import { ReasonTable } from './reason-table.js';
import { TurnHooks } from './turn-hooks.js';

describe('the reason table', () => {
  it("starts from the core's own reasons, none of which names a feature", () => {
    const core = new TurnHooks().reasons.all();
    expect(core.map((entry) => entry.registeredBy)).toEqual(core.map(() => 'cw'));
    expect(
      core.map((entry) => entry.reason).filter((reason) => /goal|auto-route|mcp|hooks|prompt-resolution/.test(reason)),
    ).toEqual([]);
  });

  it("holds each built-in feature's reasons under the feature's name, where each may stand", () => {
    const table = builtinReasonTable();
    expect(table.get('goal-token-budget-exhausted')?.registeredBy).toBe('goal');
    expect(table.get('auto-route-classification-not-executed')?.registeredBy).toBe('auto-route');
    expect(table.get('mcp-state-not-snapshottable')).toMatchObject({ registeredBy: 'mcp', places: ['tools', 'body'] });
    expect(table.reasonsFor('route')).not.toContain('mcp-resource-not-read');
    expect(table.reasonsFor('body')).toContain('mcp-resource-not-read');
    expect(table.label('prompt-resolution-failed')).toBe('the prompt could not be resolved into model-facing content');
    expect(table.label('nobody:registered-this')).toBe('nobody:registered-this');
  });

  it('refuses a malformed or taken reason', () => {
    const table = new ReasonTable();
    table.register({ reason: 'cw-acme:over', label: 'over', places: ['body'], registeredBy: 'cw-acme' });
    expect(() => table.register({ reason: 'cw-acme:over', label: 'x', places: [], registeredBy: 'x' })).toThrow(
      /already/,
    );
    expect(() => table.register({ reason: 'Over Quota', label: 'x', places: [], registeredBy: 'x' })).toThrow(
      /kebab-case/,
    );
    expect(table.mayStandIn('cw-acme:over', 'body')).toBe(true);
    expect(table.mayStandIn('cw-acme:over', 'route')).toBe(false);
  });
});

describe('the stage table', () => {
  it('orders the built-in features by the stages they register, before any plugin', () => {
    const hooks = new TurnHooks<CoreTurnTypes>();
    expect(hooks.stages.all().map((stage) => stage.name)).toEqual(['plugin']);
    applyTurnFeatures(hooks);
    expect(hooks.stages.all().map((stage) => [stage.name, stage.stage])).toEqual([
      ['goal', 100],
      ['submit-hooks', 200],
      ['prompt-resolution', 300],
      ['auto-route', 400],
      ['plugin', 1000],
    ]);
    expect(() => hooks.stages.register('goal', 50)).toThrow(/already/);
  });
});
