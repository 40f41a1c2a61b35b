import { capabilityRowSchema, type BuildContext, type ReasoningPlan } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { refineCodexBody } from './codex-build-body.js';
import { CODEX_ROW } from './codex-capability-rows.js';

const row = { ...capabilityRowSchema.parse(CODEX_ROW), plugin: '@cw/provider-openai-codex' };
const plan: ReasoningPlan = {
  tier: 'high',
  origin: 'explicit',
  keyPath: 'reasoning.effort',
  wireValue: 'high',
  alsoSet: {},
};

describe('refineCodexBody', () => {
  it('asks for encrypted reasoning on the Codex shape whenever a reasoning control is sent', () => {
    const refined = refineCodexBody({ model: 'gpt-5.6', stream: true }, {
      row,
      reasoning: plan,
    } as unknown as BuildContext);
    expect(refined['include']).toEqual(['reasoning.encrypted_content']);
  });

  it('adds nothing without reasoning, or on another route shape', () => {
    const body = { model: 'gpt-5.6' };
    expect(refineCodexBody(body, { row, reasoning: null } as unknown as BuildContext)).toBe(body);
    expect(
      refineCodexBody(body, { row: { ...row, route_shape: 'standard' }, reasoning: plan } as unknown as BuildContext),
    ).toBe(body);
  });
});
