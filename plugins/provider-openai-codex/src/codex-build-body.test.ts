import { PluginRegistry } from '@cw/core';
import type { BuildContext, LoadedPlugin, ReasoningPlan } from '@cw/core/plugin';
import { capabilityRowSchema } from '../../../core/src/route/capability-row.js';
import { describe, expect, it } from 'vitest';
import { CODEX_BODY_MATCH, CODEX_BODY_STAGE, refineCodexBody } from './codex-build-body.js';
import { CODEX_ROW } from './codex-capability-rows.js';
import { register } from './index.js';

/** What one register call recorded; the registry fills it in. */
type Registrations = Pick<LoadedPlugin, 'routeIds' | 'dialectIds' | 'toolNames' | 'refiners'>;

const row = { ...capabilityRowSchema.parse(CODEX_ROW), plugin: '@cw/provider-openai-codex' };
const plan: ReasoningPlan = {
  tier: 'high',
  origin: 'explicit',
  keyPath: 'reasoning.effort',
  wireValue: 'high',
  alsoSet: {},
};

describe('refineCodexBody', () => {
  it('asks for encrypted reasoning whenever a reasoning control is sent', () => {
    const refined = refineCodexBody({ model: 'gpt-5.6', stream: true }, {
      row,
      reasoning: plan,
    } as unknown as BuildContext);
    expect(refined['include']).toEqual(['reasoning.encrypted_content']);
    expect(refined['model']).toBe('gpt-5.6');
  });

  it('adds nothing without reasoning', () => {
    const body = { model: 'gpt-5.6' };
    expect(refineCodexBody(body, { row, reasoning: null } as unknown as BuildContext)).toBe(body);
  });

  it('declares the Codex route shape as its match', () => {
    expect(CODEX_BODY_MATCH).toEqual({ routeShapes: ['codex-responses'] });
  });
});

describe('register', () => {
  it('records the refiner with its match and stage in a real registry', () => {
    const registry = new PluginRegistry();
    const registered: Registrations = { routeIds: [], dialectIds: [], toolNames: [], refiners: [] };
    register(registry.apiFor('@cw/provider-openai-codex', registered));
    expect(registry.problems).toEqual([]);
    expect(registered).toEqual({
      routeIds: [CODEX_ROW.route_id],
      dialectIds: [],
      toolNames: [],
      refiners: [{ match: CODEX_BODY_MATCH, stage: CODEX_BODY_STAGE }],
    });
  });
});
