import { describe, expect, it } from 'vitest';
import { useCwHomes } from './support/cw-fixture.js';
import { runCw } from './support/run-cw.js';

const home = useCwHomes();

// The routes and shapes the built-in plugins must register (the route table in docs/capability-rows.md).
const BUILT_IN: Record<string, [dialect: string, shape: string]> = {
  deepseek: ['chat-completions', 'standard'],
  'deepseek-beta': ['chat-completions', 'deepseek-beta-strict-tools'],
  moonshot: ['chat-completions', 'standard'],
  'kimi-code-k3': ['chat-completions', 'kimi-code-k3'],
  'moonshot-k3': ['chat-completions', 'direct-moonshot-k3'],
  zai: ['chat-completions', 'standard'],
  xai: ['chat-completions', 'standard'],
  openrouter: ['chat-completions', 'standard'],
  vllm: ['chat-completions', 'standard'],
  ollama: ['chat-completions', 'standard'],
  sglang: ['chat-completions', 'standard'],
  // Model-aware: the row's own dialect is the one a model without an override gets.
  'opencode-zen': ['chat-completions', 'opencode-zen'],
  'opencode-zen-chat': ['chat-completions', 'opencode-zen'],
  anthropic: ['anthropic-messages', 'standard'],
  'deepseek-anthropic': ['anthropic-messages', 'standard'],
  'minimax-anthropic': ['anthropic-messages', 'standard'],
  openmodel: ['anthropic-messages', 'standard'],
  codex: ['openai-responses', 'codex-responses'],
  'opencode-zen-responses': ['openai-responses', 'opencode-zen'],
  gemini: ['gemini-generate-content', 'standard'],
  'ollama-native': ['ollama-chat', 'standard'],
};

interface ListedRoute {
  route_id: string;
  dialect: string;
  route_shape: string;
  defined_by: string;
  endpoint: { host_class: string; fingerprint: string };
  provenance: { plugin: string; source: string };
  tool_schema: { dialect: string };
  auth: { scheme: string; api_key_env: string | null; key_header: string | null };
}

describe('cw routes', () => {
  it('--json lists every built-in route and shape, plus the routes in the config, as custom-compatible', async () => {
    await home({
      routes: {
        'my-gateway': {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: 'https://llm.internal.example.com/v1',
          model: 'house-model',
        },
      },
    });
    const result = await runCw(['routes', '--json']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const { routes, default_route } = JSON.parse(result.stdout) as { routes: ListedRoute[]; default_route: string };
    expect(default_route).toBe('deepseek');
    const byId = new Map(routes.map((route) => [route.route_id, route]));
    for (const [routeId, [dialect, shape]] of Object.entries(BUILT_IN)) {
      expect(byId.get(routeId)?.dialect, routeId).toBe(dialect);
      expect(byId.get(routeId)?.route_shape, routeId).toBe(shape);
      expect(byId.get(routeId)?.defined_by).toBe('plugin-row');
      expect(byId.get(routeId)?.provenance.plugin).toMatch(/^@cw\/provider-/);
    }
    // A key in a header of the route's own: the header's name is shown, never a value.
    expect(byId.get('gemini')?.auth).toEqual({
      scheme: 'header',
      api_key_env: 'GEMINI_API_KEY',
      key_header: 'x-goog-api-key',
      header_names: [],
    });
    expect(byId.get('deepseek')?.auth.key_header).toBeNull();
    expect(byId.get('my-gateway')).toMatchObject({
      route_shape: 'custom-compatible',
      defined_by: 'user-config',
      provenance: { plugin: '@cw/provider-custom' },
    });
    expect(new Set(routes.map((route) => route.route_shape))).toEqual(
      new Set([
        'standard',
        'deepseek-beta-strict-tools',
        'kimi-code-k3',
        'direct-moonshot-k3',
        'codex-responses',
        'opencode-zen',
        'custom-compatible',
      ]),
    );
  });

  it('never prints a base URL: hosts and paths appear only as a host class and a fingerprint', async () => {
    await home({
      routes: {
        'my-gateway': {
          provider: 'custom',
          dialect: 'openai-responses',
          base_url: 'https://llm.internal.example.com/tenant-4711/v1',
          model: 'house-model',
        },
      },
    });
    for (const argv of [['routes'], ['routes', '--json']]) {
      const result = await runCw(argv);
      for (const raw of [
        'https://',
        'llm.internal',
        'tenant-4711',
        'api.deepseek.com',
        'localhost',
        'chatgpt.com',
        '/chat/completions',
      ]) {
        expect(result.stdout, `${argv.join(' ')}: ${raw}`).not.toContain(raw);
      }
    }
    const { routes } = JSON.parse((await runCw(['routes', '--json'])).stdout) as { routes: ListedRoute[] };
    const gateway = routes.find((route) => route.route_id === 'my-gateway');
    expect(gateway?.endpoint.host_class).toMatch(/^https remote sha256:[0-9a-f]{12}$/);
    expect(routes.find((route) => route.route_id === 'ollama')?.endpoint.host_class).toBe('http loopback');
  });

  it('redacts a configured route id that looks like a secret, in the table and in JSON', async () => {
    const secretish = `rt${'Q7w9E2r4T6y8U1i3O5p0'}`;
    await home({
      routes: {
        [secretish]: { provider: 'custom', dialect: 'chat-completions', base_url: 'http://127.0.0.1:9/v1', model: 'm' },
      },
    });
    for (const argv of [['routes'], ['routes', '--json']]) {
      const result = await runCw(argv);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toContain(secretish);
      expect(result.stdout).toMatch(/sha256:[0-9a-f]{12}/);
    }
  });

  it('prints a table with one line per route and the documented columns', async () => {
    await home();
    const result = await runCw(['routes']);
    expect(result.exitCode).toBe(0);
    const [header, ...rest] = result.stdout.split('\n');
    expect(header?.split(/\s{2,}/)).toEqual(['ROUTE', 'PROVIDER', 'DIALECT', 'SHAPE', 'DEFAULT MODEL', 'PLUGIN']);
    const kimi = rest.find((line) => line.startsWith('kimi-code-k3 '));
    expect(kimi?.split(/\s+/)).toEqual([
      'kimi-code-k3',
      'moonshot',
      'chat-completions',
      'kimi-code-k3',
      'k3',
      '@cw/provider-moonshot',
    ]);
    expect(result.stdout).toContain(`${Object.keys(BUILT_IN).length} routes; the active route is deepseek.`);
  });
});

interface ModelFactsView {
  model: string;
  wire_model: string;
  facts_from: string;
  dialect: string;
  reasoning: { key_path: string; default_tier: string | null; values: Record<string, unknown> } | null;
  output_cap: { field: string | null; reserve_tokens: number | null };
  provenance: Record<string, 'row' | 'model'>;
}

describe('resolved model facts', () => {
  it('cw routes --json shows each model of a route resolved, with where each fact came from', async () => {
    await home();
    const result = await runCw(['routes', '--json']);
    expect(result.exitCode).toBe(0);
    const { routes } = JSON.parse(result.stdout) as {
      routes: (ListedRoute & { models: ModelFactsView[]; model_overrides: { sets: string[] }[] })[];
    };
    const deepseek = routes.find((route) => route.route_id === 'deepseek');
    const models = new Map(deepseek?.models.map((entry) => [entry.model, entry]));
    expect(models.get('deepseek-v4-pro')).toMatchObject({
      facts_from: 'route-row',
      dialect: 'chat-completions',
      reasoning: { key_path: 'reasoning_effort', default_tier: 'max' },
      provenance: { dialect: 'row', reasoning: 'row' },
    });
    expect(models.get('deepseek-v4-flash')).toMatchObject({
      facts_from: 'model-id',
      dialect: 'openai-responses',
      reasoning: { key_path: 'reasoning.effort', default_tier: 'max' },
      output_cap: { field: 'max_output_tokens' },
      provenance: { dialect: 'model', endpoint_path: 'model', reasoning: 'model', context: 'row' },
    });
    expect(deepseek?.model_overrides[0]?.sets).toEqual([
      'dialect',
      'endpoint_path',
      'reasoning',
      'output_cap',
      'omit_body_keys',
    ]);
    const zen = routes.find((route) => route.route_id === 'opencode-zen');
    const zenModels = new Map(zen?.models.map((entry) => [entry.model, entry]));
    expect(zenModels.get('gpt-5.6')).toMatchObject({
      wire_model: 'gpt-5.6-sol',
      facts_from: 'model-pattern',
      dialect: 'openai-responses',
    });
    expect(zenModels.get('claude-sonnet-4-6')).toMatchObject({ dialect: 'anthropic-messages', reasoning: null });
    expect(zenModels.get('glm-5.3')).toMatchObject({ facts_from: 'route-row', dialect: 'chat-completions' });
    const table = await runCw(['routes']);
    expect(table.stdout.split('\n').find((line) => line.startsWith('opencode-zen '))).toContain(
      'openai-responses (per model)',
    );
  });

  it('cw plugins:inspect --json shows the same resolved facts: Z.ai models that take a toggle, a tiered effort or nothing', async () => {
    await home();
    const result = await runCw(['plugins:inspect', 'provider-zai', '--json']);
    expect(result.exitCode).toBe(0);
    const [plugin] = JSON.parse(result.stdout) as { cw: { routes: { models: ModelFactsView[] }[] } }[];
    const models = new Map(plugin?.cw.routes[0]?.models.map((entry) => [entry.model, entry]));
    expect(models.get('GLM-5.3')?.reasoning?.key_path).toBe('reasoning_effort');
    expect(models.get('GLM-5-Turbo')?.reasoning).toMatchObject({
      key_path: 'thinking.type',
      values: { high: 'enabled' },
    });
    expect(models.get('GLM-5.1')?.provenance['reasoning']).toBe('model');
    // An id only the override matches (a lower-case spelling) is listed too; a pattern would only be fingerprinted.
    expect(models.get('glm-5-turbo')?.facts_from).toBe('model-id');
  });
});

describe('cw plugins:inspect', () => {
  it('shows a built-in provider plugin: its package facts and the rows it registered, with provenance', async () => {
    await home();
    const result = await runCw(['plugins:inspect', '@cw/provider-moonshot']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('@cw/provider-moonshot');
    expect(result.stdout).toContain('version 0.1.0');
    expect(result.stdout).toContain('cw routes (3)');
    for (const line of [
      'moonshot',
      'kimi-code-k3',
      'moonshot-k3',
      'dialect chat-completions, shape direct-moonshot-k3',
      'tool schema mfjs',
      'reasoning thinking.effort (effort)',
    ]) {
      expect(result.stdout).toContain(line);
    }
    expect(result.stdout).toMatch(/provenance Moonshot platform docs/);
    expect(result.stdout).toContain('cw hook taps: none');
    // A route-only plugin has no commands and no dependencies: no empty branch stands for them.
    expect(result.stdout).not.toMatch(/^[├└]─ (commands|dependencies)$/m);
    // oclif prints `location <absolute path>`; cw never prints a path.
    expect(result.stdout).not.toContain('/plugins/provider-moonshot');
    expect(result.stdout).not.toContain('location');
  });

  it('--json carries the same rows, the package facts, and no path; the scope may be left off', async () => {
    await home();
    const result = await runCw(['plugins', 'inspect', 'provider-openai-codex', '--json']);
    expect(result.exitCode).toBe(0);
    const [plugin] = JSON.parse(result.stdout) as {
      name: string;
      version: string;
      type: string;
      cw: { api_version: number; routes: ListedRoute[]; problems: unknown[] };
    }[];
    expect(plugin).toMatchObject({
      name: '@cw/provider-openai-codex',
      version: '0.1.0',
      type: 'core',
      cw: {
        api_version: 3,
        problems: [],
        dialects: [],
        body_refiners: [{ route_ids: [], route_shapes: ['codex-responses'], stage: 100 }],
        tools: [],
        // Its body refiner is its one tap, on buildBody.
        hook_taps: expect.objectContaining({ resolveRoute: 0, projectTools: 0, buildBody: 1, 'turn.gate': 0 }),
      },
    });
    expect(plugin?.cw.routes.map((route) => [route.route_id, route.route_shape, route.provenance.plugin])).toEqual([
      ['codex', 'codex-responses', '@cw/provider-openai-codex'],
    ]);
    expect(result.stdout).not.toContain(process.cwd());
    expect(result.stdout).not.toMatch(/"root"|"location"|\/work\//);
  });

  it('says a package that is not a cw plugin registered nothing, and fails with one line for an unknown plugin', async () => {
    await home();
    const help = await runCw(['plugins:inspect', '@oclif/plugin-help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('cw: not a cw plugin');
    const missing = await runCw(['plugins:inspect', 'provider-nowhere']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('not installed');
  });
});
