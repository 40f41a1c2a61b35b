import { describe, expect, it } from 'vitest';
import { PluginRegistry, type LoadedPlugin } from '@cw/core';
import { capabilityRowSchema } from '../../core/src/route/capability-row.js';
import { EXAMPLE_ROW } from './example-capability-rows.js';
import { register } from './index.js';

/** What one register call recorded; the registry fills it in. */
type Registrations = Pick<LoadedPlugin, 'routeIds' | 'dialectIds' | 'toolNames' | 'refiners'>;

describe('plugin template', () => {
  it('registers a row the core accepts', () => {
    const registry = new PluginRegistry();
    const registered: Registrations = { routeIds: [], dialectIds: [], toolNames: [], refiners: [] };
    register(registry.apiFor('cw-plugin-template', registered));
    expect(registry.problems).toEqual([]);
    expect(registered.routeIds).toEqual([EXAMPLE_ROW.route_id]);
  });

  it('has a row that passes the capability-row schema on its own', () => {
    expect(capabilityRowSchema.safeParse(EXAMPLE_ROW).success).toBe(true);
  });
});
