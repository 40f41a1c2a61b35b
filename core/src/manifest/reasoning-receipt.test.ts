import { describe, expect, it } from 'vitest';
import type { BodyLayout, ReasoningPlan, WireBody } from '../body/wire-body.js';
import type { CapabilityRow } from '../route/capability-row.js';
import { reasoningReceipt, valueAt } from './reasoning-receipt.js';

// Layouts as the built-in dialects declare them: the flat effort key first, then `<key>.effort`.
const layout = (controlKeys: readonly string[], disclosureKeys: readonly string[] = []): BodyLayout => ({
  systemValues: [],
  itemsKey: null,
  systemItemIndexes: [],
  toolResultItemIndexes: [],
  attachmentParts: [],
  toolsKey: null,
  toolChoice: null,
  streamField: null,
  reasoning: {
    controlKeys,
    disclosureKeys,
    effortPaths: ['reasoning_effort', ...controlKeys.map((key) => `${key}.effort`)],
    budgetPaths: controlKeys.map((key) => `${key}.budget_tokens`),
  },
});
const CHAT = layout(['reasoning_effort', 'thinking', 'think', 'reasoning', 'reasoning_split', 'chat_template_kwargs']);
const RESPONSES = layout(['reasoning', 'include'], ['include']);
const ANTHROPIC = layout(['thinking', 'output_config']);
const explicit: ReasoningPlan = {
  tier: 'high',
  origin: 'explicit',
  keyPath: 'reasoning_effort',
  wireValue: 'high',
  alsoSet: {},
};

const control = (key_path: string, value_kind: 'effort' | 'budget' | 'toggle'): CapabilityRow['reasoning'] => ({
  key_path,
  value_kind,
  values: {},
  also_set: {},
  default_tier: null,
  conflicting_params: [],
  replay: 'tool-loop',
  omits_tool_choice: false,
  forbids_forced_tool_choice: false,
});

describe('reasoningReceipt', () => {
  it('RK-06 nested thinking.effort; the request plan does not leak into the receipt', () => {
    const body: WireBody = { model: 'k3', thinking: { type: 'enabled', effort: 'max' } };
    expect(reasoningReceipt(body, CHAT, explicit, null)).toEqual({
      controlKeys: ['thinking'],
      effort: 'max',
      effortSource: 'thinking.effort',
      budgetTokens: null,
      budgetSource: null,
      resolution: 'explicit',
    });
  });

  it('RK-07 Responses reasoning.effort with include', () => {
    const body: WireBody = { reasoning: { effort: 'high', summary: 'auto' }, include: ['reasoning.encrypted_content'] };
    expect(reasoningReceipt(body, RESPONSES, null, null)).toMatchObject({
      controlKeys: ['reasoning', 'include'],
      effort: 'high',
      effortSource: 'reasoning.effort',
      resolution: 'route-default',
    });
  });

  it('RK-08 Anthropic output_config.effort', () => {
    expect(reasoningReceipt({ output_config: { effort: 'low' } }, ANTHROPIC, explicit, null)).toMatchObject({
      controlKeys: ['output_config'],
      effort: 'low',
      effortSource: 'output_config.effort',
    });
  });

  it('RK-09 the flat key wins over a nested one', () => {
    const body: WireBody = { reasoning_effort: 'medium', thinking: { effort: 'max' } };
    expect(reasoningReceipt(body, CHAT, explicit, null)).toMatchObject({
      effort: 'medium',
      effortSource: 'reasoning_effort',
      controlKeys: ['reasoning_effort', 'thinking'],
    });
  });

  it('RK-10 include alone is disclosure, not a request', () => {
    expect(reasoningReceipt({ include: ['reasoning.encrypted_content'] }, RESPONSES, null, null)).toMatchObject({
      controlKeys: ['include'],
      effort: null,
      resolution: 'not-applicable',
    });
  });

  it('a thinking budget is read with its path', () => {
    expect(
      reasoningReceipt({ thinking: { type: 'enabled', budget_tokens: 16_384 } }, ANTHROPIC, null, null),
    ).toMatchObject({ budgetTokens: 16_384, budgetSource: 'thinking.budget_tokens' });
  });

  it('a row-declared path outside the dialect list is a control key, and its effort is read there', () => {
    const body: WireBody = { google: { thinking_config: { thinking_level: 'high' } } };
    expect(
      reasoningReceipt(body, CHAT, explicit, control('google.thinking_config.thinking_level', 'effort')),
    ).toMatchObject({
      controlKeys: ['google'],
      effort: 'high',
      effortSource: 'google.thinking_config.thinking_level',
    });
  });

  it('a row-declared path is not read for the wrong value kind', () => {
    const body: WireBody = { chat_template_kwargs: { reasoning_effort: 'high' } };
    expect(
      reasoningReceipt(body, CHAT, explicit, control('chat_template_kwargs.reasoning_effort', 'toggle')),
    ).toMatchObject({ controlKeys: ['chat_template_kwargs'], effort: null });
  });

  it('reads own members only: a path naming an inherited member finds nothing', () => {
    const receipt = reasoningReceipt({ model: 'm' }, layout(['constructor', 'toString']), explicit, null);
    expect(receipt.controlKeys).toEqual([]);
    expect(receipt.resolution).toBe('not-applicable');
    expect(valueAt({ model: 'm', nested: {} }, 'constructor.name')).toBeUndefined();
    expect(valueAt({ model: 'm', nested: {} }, 'nested.toString')).toBeUndefined();
  });

  it('keys are only ever reported from the constant lists, never lifted from the body', () => {
    const body: WireBody = { 'x-secret-key': { effort: 'max' }, thinking: { effort: 'low' } };
    expect(reasoningReceipt(body, CHAT, null, null).controlKeys).toEqual(['thinking']);
  });

  it('no control on the body: not-applicable, whatever was asked', () => {
    expect(reasoningReceipt({ model: 'm' }, CHAT, explicit, null)).toMatchObject({
      controlKeys: [],
      resolution: 'not-applicable',
    });
  });
  describe('a control nested in a settings object that carries other settings too', () => {
    // The object holding the output cap also holds the thinking settings; only those are the control.
    const nested: BodyLayout = {
      ...layout([]),
      reasoning: {
        controlKeys: ['settings.thinking'],
        disclosureKeys: [],
        effortPaths: ['settings.thinking.level'],
        budgetPaths: ['settings.thinking.budget'],
      },
    };
    const row = control('settings.thinking.level', 'effort');

    it('is reported by its path, with the effort read there', () => {
      const body: WireBody = { settings: { maxOut: 512, thinking: { level: 'HIGH', show: true } } };
      expect(reasoningReceipt(body, nested, explicit, row)).toEqual({
        controlKeys: ['settings.thinking'],
        effort: 'HIGH',
        effortSource: 'settings.thinking.level',
        budgetTokens: null,
        budgetSource: null,
        resolution: 'explicit',
      });
    });

    it('the settings object alone is no control: not-applicable', () => {
      const body: WireBody = { settings: { maxOut: 512 } };
      expect(reasoningReceipt(body, nested, explicit, row)).toMatchObject({
        controlKeys: [],
        effort: null,
        resolution: 'not-applicable',
      });
    });

    it('a row path the nested key does not cover still reports its top-level key', () => {
      const body: WireBody = { settings: { maxOut: 512 }, extra: { level: 'x' } };
      expect(reasoningReceipt(body, nested, explicit, control('extra.level', 'effort')).controlKeys).toEqual(['extra']);
    });
  });
});
