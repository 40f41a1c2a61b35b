import { PluginRegistry } from '@cw/core';
import type { BuildContext, LoadedPlugin, ReasoningPlan } from '@cw/core/plugin';
import { capabilityRowSchema } from '../../../core/src/route/capability-row.js';
import { describe, expect, it } from 'vitest';
import { OPENCODE_ZEN_BODY_MATCH, OPENCODE_ZEN_BODY_STAGE, refineOpenCodeZenBody } from './opencode-zen-build-body.js';
import { OPENCODE_ZEN_CHAT_ROW, OPENCODE_ZEN_RESPONSES_ROW, OPENCODE_ZEN_ROW } from './opencode-zen-capability-rows.js';
import { register } from './index.js';

/** What one register call recorded; the registry fills it in. */
type Registrations = Pick<LoadedPlugin, 'routeIds' | 'dialectIds' | 'toolNames' | 'refiners'>;

const responses = { ...capabilityRowSchema.parse(OPENCODE_ZEN_RESPONSES_ROW), plugin: '@cw/provider-opencode-zen' };
const plan = (wireValue: string): ReasoningPlan => ({
  tier: 'high',
  origin: 'explicit',
  keyPath: 'reasoning.effort',
  wireValue,
  alsoSet: {},
});

describe('refineOpenCodeZenBody', () => {
  it('asks for encrypted reasoning while reasoning is on', () => {
    expect(
      refineOpenCodeZenBody({ model: 'gpt-5.6-sol' }, {
        row: responses,
        reasoning: plan('high'),
      } as unknown as BuildContext)['include'],
    ).toEqual(['reasoning.encrypted_content']);
  });

  it('adds nothing when reasoning is off or absent', () => {
    const body = { model: 'x' };
    expect(refineOpenCodeZenBody(body, { row: responses, reasoning: plan('none') } as unknown as BuildContext)).toBe(
      body,
    );
    expect(refineOpenCodeZenBody(body, { row: responses, reasoning: null } as unknown as BuildContext)).toBe(body);
  });

  it('matches the Responses and model-aware routes by id, not the chat route that shares their shape', () => {
    expect(OPENCODE_ZEN_BODY_MATCH).toEqual({
      routeIds: [OPENCODE_ZEN_RESPONSES_ROW.route_id, OPENCODE_ZEN_ROW.route_id],
    });
    expect(OPENCODE_ZEN_BODY_MATCH.routeIds).not.toContain(OPENCODE_ZEN_CHAT_ROW.route_id);
    expect(OPENCODE_ZEN_BODY_MATCH.routeShapes).toBeUndefined();
  });
});

describe('register', () => {
  it('records the refiner with its match and stage in a real registry', () => {
    const registry = new PluginRegistry();
    const registered: Registrations = { routeIds: [], dialectIds: [], toolNames: [], refiners: [] };
    register(registry.apiFor('@cw/provider-opencode-zen', registered));
    expect(registry.problems).toEqual([]);
    expect(registered).toEqual({
      routeIds: [OPENCODE_ZEN_ROW.route_id, OPENCODE_ZEN_CHAT_ROW.route_id, OPENCODE_ZEN_RESPONSES_ROW.route_id],
      dialectIds: [],
      toolNames: [],
      refiners: [{ match: OPENCODE_ZEN_BODY_MATCH, stage: OPENCODE_ZEN_BODY_STAGE }],
    });
  });
});
