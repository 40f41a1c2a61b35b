import { capabilityRowSchema, type BuildContext, type ReasoningPlan } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { refineOpenCodeZenBody } from './opencode-zen-build-body.js';
import { OPENCODE_ZEN_CHAT_ROW, OPENCODE_ZEN_RESPONSES_ROW } from './opencode-zen-capability-rows.js';

const responses = { ...capabilityRowSchema.parse(OPENCODE_ZEN_RESPONSES_ROW), plugin: '@cw/provider-opencode-zen' };
const chat = { ...capabilityRowSchema.parse(OPENCODE_ZEN_CHAT_ROW), plugin: '@cw/provider-opencode-zen' };
const plan = (wireValue: string): ReasoningPlan => ({
  tier: 'high',
  origin: 'explicit',
  keyPath: 'reasoning.effort',
  wireValue,
  alsoSet: {},
});

describe('refineOpenCodeZenBody', () => {
  it('asks for encrypted reasoning on the Responses route while reasoning is on', () => {
    expect(
      refineOpenCodeZenBody({ model: 'gpt-5.6-sol' }, {
        row: responses,
        reasoning: plan('high'),
      } as unknown as BuildContext)['include'],
    ).toEqual(['reasoning.encrypted_content']);
  });

  it('adds nothing when reasoning is off, or on the chat route that shares the shape', () => {
    const body = { model: 'x' };
    expect(refineOpenCodeZenBody(body, { row: responses, reasoning: plan('none') } as unknown as BuildContext)).toBe(
      body,
    );
    expect(refineOpenCodeZenBody(body, { row: chat, reasoning: plan('high') } as unknown as BuildContext)).toBe(body);
  });
});
