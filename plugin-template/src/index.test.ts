import { PluginRegistry } from '@cw/core';
import type { LoadedPlugin } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_ROW } from './example-capability-rows.js';
import { EXAMPLE_BODY_MATCH, EXAMPLE_BODY_STAGE, refineExampleBody } from './example-refine-body.js';
import { register } from './index.js';

/** What one register call recorded; the registry fills it in. */
type Registrations = Pick<LoadedPlugin, 'routeIds' | 'dialectIds' | 'toolNames' | 'refiners'>;

describe('register', () => {
  it('registers a row the core validates, and its refiner, with no load problem', () => {
    const registry = new PluginRegistry();
    const registered: Registrations = { routeIds: [], dialectIds: [], toolNames: [], refiners: [] };
    register(registry.apiFor('cw-provider-example', registered));
    expect(registry.problems).toEqual([]);
    expect(registered).toEqual({
      routeIds: [EXAMPLE_ROW.route_id],
      dialectIds: [],
      toolNames: [],
      refiners: [{ match: EXAMPLE_BODY_MATCH, stage: EXAMPLE_BODY_STAGE }],
    });
    expect(registry.row(EXAMPLE_ROW.route_id)?.plugin).toBe('cw-provider-example');
  });

  it('has a row the core rejects when a field is wrong, naming the field', () => {
    const registry = new PluginRegistry();
    registry.apiFor('cw-provider-example').addRoute({ ...EXAMPLE_ROW, dialect: 'Not A Label' });
    expect(registry.problems).toEqual([
      expect.objectContaining({ code: 'invalid-row', detail: expect.stringContaining('dialect') }),
    ]);
  });
});

describe('refineExampleBody', () => {
  it('turns parallel tool calls off when the body offers tools', () => {
    expect(refineExampleBody({ model: 'm', tools: [{ type: 'function' }] })).toEqual({
      model: 'm',
      tools: [{ type: 'function' }],
      parallel_tool_calls: false,
    });
  });

  it('leaves a body without tools as it is', () => {
    const body = { model: 'm', messages: [] };
    expect(refineExampleBody(body)).toBe(body);
  });
});
