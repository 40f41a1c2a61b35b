import { describe, expect, it } from 'vitest';
import { PluginRegistry, capabilityRowSchema } from '@cw/core';
import { EXAMPLE_ROW } from './example-capability-rows.js';
import { register } from './index.js';

describe('plugin template', () => {
  it('registers a row the core accepts', () => {
    const registry = new PluginRegistry();
    const routeIds: string[] = [];
    register(registry.apiFor('cw-plugin-template', routeIds));
    expect(registry.problems).toEqual([]);
    expect(routeIds).toEqual([EXAMPLE_ROW.route_id]);
  });

  it('has a row that passes the capability-row schema on its own', () => {
    expect(capabilityRowSchema.safeParse(EXAMPLE_ROW).success).toBe(true);
  });
});
