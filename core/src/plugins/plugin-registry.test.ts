import { describe, expect, it } from 'vitest';
import type { DialectDefinition } from '../dialect/dialect-contract.js';
import { PluginRegistry, type PluginRegistrations } from './plugin-registry.js';

const dialect = (id: string): DialectDefinition => ({
  id,
  buildBody: (context) => ({ model: context.wireModel }),
  describeBody: () => {
    throw new Error('not used');
  },
  createDecoder: () => ({ push: () => [], end: () => [] }),
});

describe('addDialect checks the whole contract at load', () => {
  it('registers a complete dialect and attributes it to the plugin', () => {
    const registry = new PluginRegistry();
    const registered: PluginRegistrations = { routeIds: [], dialectIds: [], toolNames: [], refiners: [] };
    registry.apiFor('@acme/wire', registered).addDialect(dialect('acme-wire'));
    expect(registry.dialect('acme-wire')?.plugin).toBe('@acme/wire');
    expect(registered.dialectIds).toEqual(['acme-wire']);
    expect(registry.problems).toEqual([]);
  });

  it.each(['buildBody', 'describeBody', 'createDecoder'] as const)('a dialect without %s is a load problem', (part) => {
    const registry = new PluginRegistry();
    const partial = { ...dialect('half-wire'), [part]: undefined } as unknown as DialectDefinition;
    registry.apiFor('@acme/half').addDialect(partial);
    expect(registry.dialect('half-wire')).toBeUndefined();
    expect(registry.problems).toEqual([
      { plugin: '@acme/half', code: 'invalid-dialect', detail: `dialect half-wire has no ${part} function` },
    ]);
  });

  it('rejects an id that is not a kebab-case label, and a second registration of a taken id', () => {
    const registry = new PluginRegistry();
    registry.apiFor('@acme/one').addDialect(dialect('Acme_Wire'));
    registry.apiFor('@acme/one').addDialect(dialect('acme-wire'));
    registry.apiFor('@acme/two').addDialect(dialect('acme-wire'));
    expect(registry.problems.map((problem) => [problem.plugin, problem.code])).toEqual([
      ['@acme/one', 'invalid-dialect'],
      ['@acme/two', 'duplicate-dialect'],
    ]);
    expect(registry.dialect('acme-wire')?.plugin).toBe('@acme/one');
  });
});

describe('refineBody runs only on the routes its match declares', () => {
  const context = (routeId: string, shape: string) =>
    ({ row: { route_id: routeId, route_shape: shape } }) as unknown as Parameters<
      PluginRegistry['hooks']['buildBody']['call']
    >[1];

  it('applies by route id or shape, after reasoning placement, and records the match', () => {
    const registry = new PluginRegistry();
    const registered: PluginRegistrations = { routeIds: [], dialectIds: [], toolNames: [], refiners: [] };
    const api = registry.apiFor('@acme/refine', registered);
    api.refineBody({ routeIds: ['one'] }, (body) => ({ ...body, byId: true }));
    api.refineBody({ routeShapes: ['wide'] }, (body) => ({ ...body, byShape: true }), { stage: 120 });
    expect(registry.hooks.buildBody.call({}, context('one', 'narrow'))).toEqual({ byId: true });
    expect(registry.hooks.buildBody.call({}, context('two', 'wide'))).toEqual({ byShape: true });
    expect(registry.hooks.buildBody.call({}, context('three', 'narrow'))).toEqual({});
    expect(registered.refiners).toEqual([
      { match: { routeIds: ['one'] }, stage: 100 },
      { match: { routeShapes: ['wide'] }, stage: 120 },
    ]);
  });

  it('an empty match, or a stage at or before reasoning placement, is a load problem', () => {
    const registry = new PluginRegistry();
    const api = registry.apiFor('@acme/refine');
    api.refineBody({}, (body) => body);
    api.refineBody({ routeIds: ['one'] }, (body) => body, { stage: 50 });
    expect(registry.problems.map((problem) => problem.code)).toEqual(['invalid-refiner', 'invalid-refiner']);
    expect(registry.hooks.buildBody.taps.map((tap) => tap.name)).toEqual(['cw:reasoning-placement']);
  });
});

describe('what a plugin taps is its own', () => {
  it('a tap is named for the plugin whatever name it passes', () => {
    const registry = new PluginRegistry();
    registry
      .apiFor('@acme/honest')
      .hooks.resolveRoute.tap({ name: '@cw/provider-deepseek', stage: -5 }, () => undefined);
    registry.apiFor('@acme/plain').hooks.projectTools.tap('whatever', (projection) => projection);
    expect(registry.hooks.resolveRoute.taps.map((tap) => [tap.name, tap.stage])).toEqual([['@acme/honest', -5]]);
    expect(registry.hooks.projectTools.taps.map((tap) => tap.name)).toEqual(['@acme/plain']);
  });

  it('withdrawing a plugin removes its rows and dialects and silences its taps', () => {
    const registry = new PluginRegistry();
    const api = registry.apiFor('@acme/broken');
    api.addDialect(dialect('broken-wire'));
    api.refineBody({ routeIds: ['one'] }, (body) => ({ ...body, refined: true }));
    api.hooks.resolveRoute.tap('x', () => {
      throw new Error('must not run');
    });
    registry.withdraw('@acme/broken');
    expect(registry.dialect('broken-wire')).toBeUndefined();
    const context = { row: { route_id: 'one', route_shape: 'standard' } } as unknown as Parameters<
      PluginRegistry['hooks']['buildBody']['call']
    >[1];
    expect(registry.hooks.buildBody.call({}, context)).toEqual({});
    expect(registry.hooks.resolveRoute.call({} as never)).toBeUndefined();
  });
});
