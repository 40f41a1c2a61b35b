import { describe, expect, it } from 'vitest';
import { cwConfigSchema, settleRoutes } from '../config/cw-config.js';
import { PluginRegistry } from '../plugins/plugin-registry.js';
import { applyOverrides } from './snapshot-overrides.js';

const config = settleRoutes(
  cwConfigSchema.parse({
    route: 'mine',
    routes: {
      mine: { provider: 'custom', dialect: 'chat-completions', base_url: 'http://127.0.0.1:9/v1', model: 'base' },
      meta: { provider: 'custom', dialect: 'chat-completions', base_url: 'http://127.0.0.1:9/v1', model: 'x' },
    },
  }),
);
const registry = new PluginRegistry();

describe('applyOverrides', () => {
  it('no flags: the config as it was', () => {
    expect(applyOverrides(config, {}, registry, 'default-route')).toEqual(config);
  });

  it('-r, -m and --reasoning replace what the plan reads; -m replaces a configured route own model', () => {
    const next = applyOverrides(config, { route: 'meta', model: 'big', reasoning: 'high' }, registry, 'd');
    expect(next.route).toBe('meta');
    expect(next.model).toBe('big');
    expect(next.reasoning).toBe('high');
    expect(next.routes['meta']?.model).toBe('big');
    expect(next.routes['mine']?.model).toBe('base');
  });

  it('route/model selects both only when the first part is a route', () => {
    const both = applyOverrides(config, { model: 'meta/llama-3' }, registry, 'd');
    expect([both.route, both.model]).toEqual(['meta', 'llama-3']);
    const whole = applyOverrides(config, { model: 'meta-llama/Llama-3.3-70B-Instruct' }, registry, 'd');
    expect([whole.route, whole.model]).toEqual(['mine', 'meta-llama/Llama-3.3-70B-Instruct']);
    expect(whole.routes['mine']?.model).toBe('meta-llama/Llama-3.3-70B-Instruct');
    // With -r given, a route part that names another route is part of the model id.
    const pinned = applyOverrides(config, { route: 'mine', model: 'meta/llama-3' }, registry, 'd');
    expect([pinned.route, pinned.model]).toEqual(['mine', 'meta/llama-3']);
    const same = applyOverrides(config, { route: 'meta', model: 'meta/llama-3' }, registry, 'd');
    expect([same.route, same.model]).toEqual(['meta', 'llama-3']);
  });

  it('refuses what config would refuse, naming the flag and not the value', () => {
    expect(() => applyOverrides(config, { route: 'r'.repeat(65) }, registry, 'd')).toThrow(/`--route` takes/);
    expect(() => applyOverrides(config, { model: '' }, registry, 'd')).toThrow(/`--model` takes/);
  });
});
