import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewRequest, type CwSnapshot, type PluginRegistry } from '@cw/core';
import type { Entrypoint, WireBody } from '@cw/core/plugin';
import { REASONING_TIERS, type ReasoningTier } from '../core/src/route/capability-row.js';
import { builtinRegistry, removeHome, snapshotOf, tempHome } from './support/cw-fixture.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { validateWireBody, type WireDialect } from './support/wire-schemas.js';

// What each built-in route must put on the wire, from the facts in docs/capability-rows.md.
interface RouteFacts {
  readonly dialect: WireDialect;
  readonly shape: string;
  /** Path of the POST URL. */
  readonly path: string;
  /** Body path of the output cap (dotted when nested), or null when the route sends none. */
  readonly capField: string | null;
  /** Where the `high` tier's control lands, as a dotted path, and its value. */
  readonly high: readonly [string, string | number | boolean];
  /** Whether tool_choice is in the body at the route's default reasoning. */
  readonly toolChoiceByDefault: boolean;
}

const ROUTES: Readonly<Record<string, RouteFacts>> = {
  deepseek: {
    dialect: 'chat-completions',
    shape: 'standard',
    path: '/v1/chat/completions',
    capField: 'max_tokens',
    high: ['reasoning_effort', 'high'],
    toolChoiceByDefault: false,
  },
  'deepseek-beta': {
    dialect: 'chat-completions',
    shape: 'deepseek-beta-strict-tools',
    path: '/beta/chat/completions',
    capField: 'max_tokens',
    high: ['reasoning_effort', 'high'],
    toolChoiceByDefault: false,
  },
  'deepseek-anthropic': {
    dialect: 'anthropic-messages',
    shape: 'standard',
    path: '/anthropic/v1/messages',
    capField: 'max_tokens',
    high: ['output_config.effort', 'high'],
    toolChoiceByDefault: true,
  },
  moonshot: {
    dialect: 'chat-completions',
    shape: 'standard',
    path: '/v1/chat/completions',
    capField: 'max_tokens',
    high: ['thinking.type', 'enabled'],
    toolChoiceByDefault: true,
  },
  'kimi-code-k3': {
    dialect: 'chat-completions',
    shape: 'kimi-code-k3',
    path: '/coding/v1/chat/completions',
    capField: 'max_tokens',
    high: ['thinking.effort', 'high'],
    toolChoiceByDefault: true,
  },
  'moonshot-k3': {
    dialect: 'chat-completions',
    shape: 'direct-moonshot-k3',
    path: '/v1/chat/completions',
    capField: 'max_completion_tokens',
    high: ['reasoning_effort', 'high'],
    toolChoiceByDefault: true,
  },
  zai: {
    dialect: 'chat-completions',
    shape: 'standard',
    path: '/api/coding/paas/v4/chat/completions',
    capField: 'max_tokens',
    high: ['reasoning_effort', 'high'],
    toolChoiceByDefault: true,
  },
  xai: {
    dialect: 'chat-completions',
    shape: 'standard',
    path: '/v1/chat/completions',
    capField: 'max_tokens',
    high: ['reasoning_effort', 'high'],
    toolChoiceByDefault: true,
  },
  openrouter: {
    dialect: 'chat-completions',
    shape: 'standard',
    path: '/api/v1/chat/completions',
    capField: 'max_tokens',
    high: ['reasoning_effort', 'high'],
    toolChoiceByDefault: true,
  },
  vllm: {
    dialect: 'chat-completions',
    shape: 'standard',
    path: '/v1/chat/completions',
    capField: 'max_tokens',
    high: ['chat_template_kwargs.enable_thinking', true],
    toolChoiceByDefault: true,
  },
  ollama: {
    dialect: 'chat-completions',
    shape: 'standard',
    path: '/v1/chat/completions',
    capField: 'max_tokens',
    high: ['think', true],
    toolChoiceByDefault: true,
  },
  sglang: {
    dialect: 'chat-completions',
    shape: 'standard',
    path: '/v1/chat/completions',
    capField: 'max_tokens',
    high: ['reasoning_effort', 'high'],
    toolChoiceByDefault: true,
  },
  'opencode-zen-chat': {
    dialect: 'chat-completions',
    shape: 'opencode-zen',
    path: '/zen/v1/chat/completions',
    capField: 'max_tokens',
    high: ['model', 'deepseek-v4-pro'],
    toolChoiceByDefault: true,
  },
  'opencode-zen': {
    dialect: 'openai-responses',
    shape: 'opencode-zen',
    path: '/zen/v1/responses',
    capField: 'max_output_tokens',
    high: ['reasoning.effort', 'high'],
    toolChoiceByDefault: true,
  },
  'opencode-zen-responses': {
    dialect: 'openai-responses',
    shape: 'opencode-zen',
    path: '/zen/v1/responses',
    capField: 'max_output_tokens',
    high: ['reasoning.effort', 'high'],
    toolChoiceByDefault: true,
  },
  anthropic: {
    dialect: 'anthropic-messages',
    shape: 'standard',
    path: '/v1/messages',
    capField: 'max_tokens',
    high: ['output_config.effort', 'high'],
    toolChoiceByDefault: true,
  },
  'minimax-anthropic': {
    dialect: 'anthropic-messages',
    shape: 'standard',
    path: '/anthropic/v1/messages',
    capField: 'max_tokens',
    high: ['thinking.type', 'adaptive'],
    toolChoiceByDefault: true,
  },
  openmodel: {
    dialect: 'anthropic-messages',
    shape: 'standard',
    path: '/v1/messages',
    capField: 'max_tokens',
    high: ['thinking.budget_tokens', 16_384],
    toolChoiceByDefault: true,
  },
  codex: {
    dialect: 'openai-responses',
    shape: 'codex-responses',
    path: '/backend-api/codex/responses',
    capField: null,
    high: ['reasoning.effort', 'high'],
    toolChoiceByDefault: true,
  },
  gemini: {
    dialect: 'gemini-generate-content',
    shape: 'standard',
    path: '/v1beta/models/gemini-flash-latest:streamGenerateContent',
    capField: 'generationConfig.maxOutputTokens',
    high: ['generationConfig.thinkingConfig.thinkingLevel', 'HIGH'],
    // Gemini's choice is toolConfig.functionCallingConfig, never a tool_choice key.
    toolChoiceByDefault: false,
  },
  'ollama-native': {
    dialect: 'ollama-chat',
    shape: 'standard',
    path: '/api/chat',
    capField: 'options.num_predict',
    high: ['think', true],
    toolChoiceByDefault: false,
  },
  'custom-chat': {
    dialect: 'chat-completions',
    shape: 'custom-compatible',
    path: '/v1/chat/completions',
    capField: 'max_tokens',
    high: ['model', 'local-model'],
    toolChoiceByDefault: true,
  },
  'custom-messages': {
    dialect: 'anthropic-messages',
    shape: 'custom-compatible',
    path: '/v1/messages',
    capField: 'max_tokens',
    high: ['model', 'local-model'],
    toolChoiceByDefault: true,
  },
  'custom-responses': {
    dialect: 'openai-responses',
    shape: 'custom-compatible',
    path: '/v1/responses',
    capField: 'max_output_tokens',
    high: ['model', 'local-model'],
    toolChoiceByDefault: true,
  },
};

const CUSTOM_ROUTES = {
  'custom-chat': {
    provider: 'custom',
    dialect: 'chat-completions',
    base_url: 'http://127.0.0.1:18081/v1',
    model: 'local-model',
  },
  'custom-messages': {
    provider: 'custom',
    dialect: 'anthropic-messages',
    base_url: 'http://127.0.0.1:18081/v1',
    model: 'local-model',
  },
  'custom-responses': {
    provider: 'custom',
    dialect: 'openai-responses',
    base_url: 'http://127.0.0.1:18081/v1',
    model: 'local-model',
  },
};

function at(body: WireBody, path: string): unknown {
  let node: unknown = body;
  for (const key of path.split('.'))
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

let registry: PluginRegistry;
let base: CwSnapshot;
let home: string;

beforeAll(async () => {
  registry = await builtinRegistry();
  home = await tempHome({ routes: CUSTOM_ROUTES });
  base = await snapshotOf(home, registry);
});
afterAll(async () => {
  await removeHome(home);
});

function preview(routeId: string, entrypoint: Entrypoint, reasoning?: ReasoningTier) {
  const snapshot: CwSnapshot = {
    ...base,
    config: { ...base.config, route: routeId, ...(reasoning === undefined ? {} : { reasoning }) },
  };
  const result = previewRequest(snapshot, 'Summarize the repository layout.', entrypoint);
  expectValidManifest(result.manifest);
  expect(result.prepared, `${routeId} ${entrypoint} ${reasoning ?? 'default'}`).not.toBeNull();
  if (!result.prepared) throw new Error('no prepared request');
  return result;
}

describe('every built-in route, as a preview with the built-in catalog', () => {
  it('the matrix names every route the built-in plugins register', () => {
    expect(registry.problems).toEqual([]);
    const expectedRows = Object.keys(ROUTES).filter((id) => !id.startsWith('custom-'));
    expect(registry.rows.map((row) => row.route_id).sort()).toEqual(expectedRows.sort());
  });

  for (const [routeId, facts] of Object.entries(ROUTES)) {
    describe(routeId, () => {
      it('builds a body that validates against its dialect schema, at every reasoning tier, on both entry points', () => {
        for (const entrypoint of ['streaming', 'blocking'] as const) {
          for (const tier of [undefined, ...REASONING_TIERS]) {
            const { prepared, manifest } = preview(routeId, entrypoint, tier);
            const validation = validateWireBody(facts.dialect, prepared?.body);
            expect(validation.errors, `${routeId} ${entrypoint} ${tier ?? 'default'}`).toEqual([]);
            expect('exact' in manifest.body).toBe(true);
          }
        }
      });

      it('reports its dialect and shape, posts to its path, and writes its own cap field', () => {
        const { prepared, manifest } = preview(routeId, 'streaming');
        expect(prepared?.dialect).toBe(facts.dialect);
        expect(prepared?.routeShape).toBe(facts.shape);
        expect(new URL(prepared?.url ?? '').pathname).toBe(facts.path);
        const route = 'exact' in manifest.route ? manifest.route.exact : null;
        expect(route?.route_shape).toBe(facts.shape);
        const body = prepared?.body ?? {};
        for (const field of ['max_tokens', 'max_completion_tokens', 'max_output_tokens']) {
          expect(field in body, field).toBe(field === facts.capField);
        }
        if (facts.capField !== null) expect(typeof at(body, facts.capField), facts.capField).toBe('number');
      });

      it('puts the high tier where the row says, and tool_choice only where the route takes it', () => {
        const [path, value] = facts.high;
        expect(at(preview(routeId, 'streaming', 'high').prepared?.body ?? {}, path)).toEqual(value);
        expect('tool_choice' in (preview(routeId, 'streaming').prepared?.body ?? {})).toBe(facts.toolChoiceByDefault);
      });

      it('sends every built-in tool exactly as authored, or relaxed by the strict rewrite only', () => {
        const { prepared } = preview(routeId, 'blocking');
        for (const outcome of prepared?.projection.outcomes ?? []) {
          if (outcome.outcome === 'relaxed') expect(outcome.rules).toEqual(['close-objects-for-strict']);
          else expect(outcome.outcome).toBe('exact');
        }
        expect(prepared?.projection.warning).toBeNull();
      });
    });
  }
});

describe('shape-specific wire facts', () => {
  it('kimi-code-k3 nests the effort in thinking and never sends reasoning_effort', () => {
    for (const [tier, effort] of [
      ['off', 'low'],
      ['medium', 'high'],
      ['max', 'max'],
    ] as const) {
      const body = preview('kimi-code-k3', 'streaming', tier).prepared?.body ?? {};
      expect(body['thinking']).toEqual({ type: 'enabled', effort });
      expect('reasoning_effort' in body).toBe(false);
    }
    // No tier selected: the route sends no control, the provider default applies.
    expect('thinking' in (preview('kimi-code-k3', 'streaming').prepared?.body ?? {})).toBe(false);
  });

  it('moonshot-k3 sends a top-level effort, no thinking object, max_completion_tokens, and never sampling', async () => {
    const body = preview('moonshot-k3', 'streaming', 'medium').prepared?.body ?? {};
    expect(body['reasoning_effort']).toBe('high');
    expect('thinking' in body).toBe(false);
    expect(typeof body['max_completion_tokens']).toBe('number');
    // A plugin that adds sampling to every chat body: the fixed-sampling route still sends none.
    const sampling = await builtinRegistry();
    sampling
      .apiFor('test-sampling')
      .refineBody({ routeIds: ['moonshot', 'moonshot-k3'] }, (built) => ({ ...built, temperature: 0.2, top_p: 0.9 }));
    const withSampling = (routeId: string): WireBody => {
      const snapshot: CwSnapshot = { ...base, registry: sampling, config: { ...base.config, route: routeId } };
      return previewRequest(snapshot, 'hello', 'streaming').prepared?.body ?? {};
    };
    expect(withSampling('moonshot')['temperature']).toBe(0.2);
    const k3 = withSampling('moonshot-k3');
    expect('temperature' in k3 || 'top_p' in k3).toBe(false);
  });

  it('deepseek carries tool_choice only when thinking is off, and turns thinking off with the toggle alone', () => {
    const off = preview('deepseek', 'streaming', 'off').prepared?.body ?? {};
    expect(off['thinking']).toEqual({ type: 'disabled' });
    expect('reasoning_effort' in off).toBe(false);
    expect(off['tool_choice']).toBe('auto');
    const max = preview('deepseek', 'streaming', 'xhigh').prepared?.body ?? {};
    expect(max['reasoning_effort']).toBe('max');
    expect('tool_choice' in max).toBe(false);
  });

  it('deepseek-beta sends strict tools, nested under function', () => {
    const body = preview('deepseek-beta', 'streaming').prepared?.body ?? {};
    const tools = body['tools'] as { function: { strict?: boolean; parameters: { additionalProperties?: boolean } } }[];
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      expect(tool.function.strict).toBe(true);
      expect(tool.function.parameters.additionalProperties).toBe(false);
    }
  });

  it('zai keeps the thinking toggle for every tier and sends an effort for the high tiers only', () => {
    const medium = preview('zai', 'streaming', 'medium').prepared?.body ?? {};
    expect(medium['thinking']).toEqual({ type: 'enabled', clear_thinking: false });
    expect('reasoning_effort' in medium).toBe(false);
    expect(preview('zai', 'streaming', 'max').prepared?.body['reasoning_effort']).toBe('max');
    expect(preview('zai', 'streaming', 'off').prepared?.body['thinking']).toEqual({ type: 'disabled' });
  });

  it('codex asks for encrypted reasoning with a summary, and sends no output cap', () => {
    for (const entrypoint of ['streaming', 'blocking'] as const) {
      const body = preview('codex', entrypoint).prepared?.body ?? {};
      expect(body['reasoning']).toEqual({ summary: 'auto', effort: 'medium' });
      expect(body['include']).toEqual(['reasoning.encrypted_content']);
      expect(body['stream']).toBe(true);
      expect(body['store']).toBe(false);
    }
    expect(preview('codex', 'streaming', 'off').prepared?.body['reasoning']).toEqual({
      summary: 'auto',
      effort: 'low',
    });
  });

  it('opencode-zen responses maps the public model id to its wire id, and asks for encrypted reasoning', () => {
    const { prepared } = preview('opencode-zen-responses', 'streaming');
    expect(prepared?.wireModel).toBe('gpt-5.6-sol');
    expect(prepared?.body['include']).toEqual(['reasoning.encrypted_content']);
    const off = preview('opencode-zen-responses', 'streaming', 'off').prepared?.body ?? {};
    expect(off['reasoning']).toEqual({ effort: 'none' });
    expect('include' in off).toBe(false);
  });

  it('openmodel keeps the thinking budget below max_tokens', () => {
    const high = preview('openmodel', 'streaming', 'high').prepared?.body ?? {};
    expect(high['thinking']).toEqual({ type: 'enabled', budget_tokens: 16_384 });
    const max = preview('openmodel', 'streaming', 'max').prepared?.body ?? {};
    expect(max['thinking']).toEqual({ type: 'enabled', budget_tokens: (max['max_tokens'] as number) - 1 });
    expect('thinking' in (preview('openmodel', 'streaming', 'off').prepared?.body ?? {})).toBe(false);
  });

  it('anthropic thinks adaptively with an effort, and sends nothing for off', () => {
    const high = preview('anthropic', 'streaming', 'xhigh').prepared?.body ?? {};
    expect(high['thinking']).toEqual({ type: 'adaptive' });
    expect(high['output_config']).toEqual({ effort: 'max' });
    const off = preview('anthropic', 'streaming', 'off').prepared?.body ?? {};
    expect('thinking' in off || 'output_config' in off).toBe(false);
  });

  it('gemini names the model in the URL, streams by URL, and forces a function through toolConfig', () => {
    const streaming = preview('gemini', 'streaming').prepared;
    const blocking = preview('gemini', 'blocking').prepared;
    expect(new URL(streaming?.url ?? '').search).toBe('?alt=sse');
    expect(new URL(blocking?.url ?? '').pathname).toBe('/v1beta/models/gemini-flash-latest:generateContent');
    for (const body of [streaming?.body ?? {}, blocking?.body ?? {}]) {
      expect('model' in body || 'stream' in body).toBe(false);
      expect(body['toolConfig']).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    }
    // off is the lowest level: these models cannot stop thinking.
    expect(at(preview('gemini', 'streaming', 'off').prepared?.body ?? {}, 'generationConfig.thinkingConfig')).toEqual({
      includeThoughts: true,
      thinkingLevel: 'MINIMAL',
    });
  });

  it('ollama-native tells the server its context size and never sends a tool choice', () => {
    for (const tier of [undefined, ...REASONING_TIERS]) {
      const body = preview('ollama-native', 'blocking', tier).prepared?.body ?? {};
      expect(at(body, 'options.num_ctx')).toBe(32_768);
      expect(body['stream']).toBe(false);
    }
  });

  it('local servers are loopback, unbilled and keyless', () => {
    for (const routeId of ['vllm', 'ollama', 'sglang', 'ollama-native']) {
      const { prepared, manifest } = preview(routeId, 'streaming');
      expect(prepared?.apiKeyEnv).toBeNull();
      const route = 'exact' in manifest.route ? manifest.route.exact : null;
      expect(route?.endpoint_host_class).toBe('http loopback');
      expect(route?.billing).toEqual({ kind: 'local' });
    }
  });
});
