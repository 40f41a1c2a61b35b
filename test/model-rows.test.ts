// Per-model facts in capability rows, output cap and ceiling, prompt caching and outbound secret
// redaction, each checked on the body a real preview builds (docs/capability-rows.md).
import { afterAll, describe, expect, it } from 'vitest';
import type { RequestManifest } from '@cw/core';
import type { WireBody } from '@cw/core/plugin';
import { byteClasses } from '../core/src/body/byte-classes.js';
import { OUTBOUND_SECRET_MARKER } from '../core/src/redaction/outbound-secrets.js';
import { FAKE_KEY } from './support/cw-fixture.js';
import { HISTORY_WITH_TOOL_RESULTS, previewFor, removePreviewHomes, testRow } from './support/manifest-preview.js';
import { validateWireBody, type WireDialect } from './support/wire-schemas.js';

afterAll(removePreviewHomes);

type Setup = Parameters<typeof previewFor>[0];

/** A ready preview's body, checked against its dialect's published schema, and its manifest. */
async function bodyOf(setup: Setup): Promise<{ body: WireBody; manifest: RequestManifest; url: string }> {
  const result = await previewFor(setup);
  const prepared = result.prepared;
  if (prepared === null) throw new Error(`no prepared request: ${JSON.stringify(result.manifest.body)}`);
  expect(validateWireBody(prepared.dialect as WireDialect, prepared.body).errors).toEqual([]);
  return { body: prepared.body, manifest: result.manifest, url: prepared.url };
}

function exactBody(manifest: RequestManifest) {
  if (!('exact' in manifest.body)) throw new Error('body not exact');
  return manifest.body.exact;
}

function exactRoute(manifest: RequestManifest) {
  if (!('exact' in manifest.route)) throw new Error('route not exact');
  return manifest.route.exact;
}

const ZAI_TOGGLE = { type: 'enabled', clear_thinking: false };

describe('each model gets its own reasoning facts', () => {
  it('Z.ai GLM-5-Turbo at high sends the thinking toggle and no reasoning_effort', async () => {
    const { body, manifest } = await bodyOf({ config: { route: 'zai', model: 'GLM-5-Turbo', reasoning: 'high' } });
    expect(body['thinking']).toEqual(ZAI_TOGGLE);
    expect('reasoning_effort' in body).toBe(false);
    expect(exactRoute(manifest).model_facts_source).toBe('model-id');
  });

  it('Z.ai GLM-5.1 at high sends the thinking toggle and no reasoning_effort', async () => {
    const { body } = await bodyOf({ config: { route: 'zai', model: 'GLM-5.1', reasoning: 'high' } });
    expect(body['thinking']).toEqual(ZAI_TOGGLE);
    expect('reasoning_effort' in body).toBe(false);
  });

  it('Z.ai with a model cw does not know sends no reasoning control at high', async () => {
    const { body, manifest } = await bodyOf({ config: { route: 'zai', model: 'glm-future-9', reasoning: 'high' } });
    expect('thinking' in body || 'reasoning_effort' in body).toBe(false);
    expect(exactRoute(manifest).model_facts_source).toBe('route-row');
    expect(exactBody(manifest).reasoning_resolution).toBe('not-applicable');
  });

  it('Z.ai GLM-5.3 keeps its tiered effort at high', async () => {
    const { body } = await bodyOf({ config: { route: 'zai', reasoning: 'high' } });
    expect(body['reasoning_effort']).toBe('high');
    expect(body['thinking']).toEqual(ZAI_TOGGLE);
  });

  it('Anthropic claude-haiku-4-5 at high sends no thinking and no output_config', async () => {
    const { body } = await bodyOf({ config: { route: 'anthropic', model: 'claude-haiku-4-5', reasoning: 'high' } });
    expect(body['model']).toBe('claude-haiku-4-5');
    expect('thinking' in body || 'output_config' in body).toBe(false);
  });

  it('MiniMax-M2 on the Anthropic-shaped route sends no thinking at high; M3 still thinks adaptively', async () => {
    const m2 = await bodyOf({ config: { route: 'minimax-anthropic', model: 'MiniMax-M2', reasoning: 'high' } });
    expect('thinking' in m2.body).toBe(false);
    const m3 = await bodyOf({ config: { route: 'minimax-anthropic', reasoning: 'high' } });
    expect(m3.body['thinking']).toEqual({ type: 'adaptive' });
  });

  it('xAI grok-4.5 at max sends high, its top effort; grok-4.6 at max still sends xhigh', async () => {
    const grok45 = await bodyOf({ config: { route: 'xai', model: 'grok-4.5', reasoning: 'max' } });
    expect(grok45.body['reasoning_effort']).toBe('high');
    const grok46 = await bodyOf({ config: { route: 'xai', reasoning: 'max' } });
    expect(grok46.body['reasoning_effort']).toBe('xhigh');
  });

  it('deepseek-reasoner on the DeepSeek Messages route goes on the wire as deepseek-v4-flash', async () => {
    const { body, manifest } = await bodyOf({
      config: { route: 'deepseek-anthropic', model: 'deepseek-reasoner', reasoning: 'high' },
    });
    expect(body['model']).toBe('deepseek-v4-flash');
    expect(body['thinking']).toEqual({ type: 'adaptive' });
    expect(body['output_config']).toEqual({ effort: 'high' });
    expect(exactRoute(manifest).wire_model).toBe('deepseek-v4-flash');
  });

  it('DeepSeek with no reasoning setting thinks at max', async () => {
    const { body, manifest } = await bodyOf({ config: { route: 'deepseek' } });
    expect(body['reasoning_effort']).toBe('max');
    expect(body['thinking']).toEqual({ type: 'enabled' });
    expect(exactBody(manifest).reasoning_resolution).toBe('route-default');
  });

  it('auto picks the tier from the prompt, and the route ladder maps it', async () => {
    const light = await bodyOf({
      config: { route: 'deepseek', reasoning: 'auto' },
      prompt: 'fix a typo in the README',
    });
    // "fix" is deep work: high.
    expect(light.body['reasoning_effort']).toBe('high');
    const typo = await bodyOf({ config: { route: 'deepseek', reasoning: 'auto' }, prompt: 'rename the typo' });
    expect(typo.body['reasoning_effort']).toBe('low');
    const deep = await bodyOf({
      config: { route: 'anthropic', reasoning: 'auto' },
      prompt: 'investigate the deadlock, find the root cause and refactor the lock order',
    });
    expect(deep.body['output_config']).toEqual({ effort: 'max' });
    expect(deep.manifest.session.requested_reasoning).toBe('auto');
    expect(exactBody(deep.manifest).reasoning_resolution).toBe('resolved-from-prompt');
  });
});

describe('the output cap and the input budget agree', () => {
  it('Codex sends no cap and reserves only the 4,096 tokens its row declares', async () => {
    const { body, manifest } = await bodyOf({ config: { route: 'codex' } });
    expect('max_output_tokens' in body).toBe(false);
    const facts = exactBody(manifest);
    expect(facts.wire_output_cap_tokens).toBeNull();
    expect(facts.output_reservation_tokens).toBe(4_096);
    expect(facts.input_budget_ceiling_tokens).toBe(128_000 - 4_096 - 1_024);
  });

  it('a 2,000-token window clamps the cap to what the window leaves, and the ceiling reserves exactly that', async () => {
    const result = await previewFor({
      config: {
        route: 'tiny',
        routes: {
          tiny: {
            provider: 'custom',
            dialect: 'chat-completions',
            base_url: 'http://127.0.0.1:9/v1',
            model: 'm',
            context_window: 2_000,
            max_output_tokens: 500,
          },
        },
      },
    });
    const plan = result.plan;
    expect(plan.prepared?.body['max_tokens']).toBe(1);
    expect(plan.prepared?.outputReservationTokens).toBe(1);
    expect(plan.measured?.ceiling).toBe(2_000 - 1 - 1_024);
  });

  it('an 8,192-token window lowers the default cap to 6,144 and keeps 1,024 input tokens', async () => {
    const result = await previewFor({
      config: {
        route: 'small',
        routes: {
          small: {
            provider: 'custom',
            dialect: 'chat-completions',
            base_url: 'http://127.0.0.1:9/v1',
            model: 'm',
            context_window: 8_192,
            max_output_tokens: 32_000,
          },
        },
      },
    });
    expect(result.plan.prepared?.body['max_tokens']).toBe(6_144);
    expect(result.plan.measured?.ceiling).toBe(1_024);
  });
});

describe('a model override is checked like a row', () => {
  it('a model whose resolved row is invalid fails the route plan with the field named', async () => {
    const row = testRow('capless', 'openai-responses', {
      output_cap: { field: null, default_tokens: 1_000, reserve_tokens: 500 },
      models: [{ match: { ids: ['row-model'] }, output_cap: { field: 'max_output_tokens' } }],
    });
    const result = await previewFor({ rows: [row], config: { route: 'capless' } });
    expect(result.plan).toMatchObject({ status: 'blocked', reason: 'route-plan-failed' });
    expect(result.plan.status === 'blocked' ? result.plan.detail : '').toContain('reserve_tokens');
  });
});

describe('model-aware routes pick the dialect per model', () => {
  it('DeepSeek sends deepseek-v4-flash over Responses with its own reasoning shape', async () => {
    const { body, url, manifest } = await bodyOf({ config: { route: 'deepseek', model: 'deepseek-v4-flash' } });
    expect(new URL(url).pathname).toBe('/responses');
    expect(body['reasoning']).toEqual({ effort: 'max' });
    expect('include' in body || 'store' in body).toBe(false);
    expect(typeof body['max_output_tokens']).toBe('number');
    expect('input' in body && !('messages' in body)).toBe(true);
    expect(exactRoute(manifest)).toMatchObject({ dialect: 'openai-responses', model_facts_source: 'model-id' });
    const off = await bodyOf({ config: { route: 'deepseek', model: 'deepseek-v4-flash', reasoning: 'off' } });
    expect(off.body['reasoning']).toEqual({ effort: 'none' });
  });

  it('DeepSeek keeps deepseek-v4-pro on Chat Completions, and a retired alias takes the flash facts', async () => {
    const pro = await bodyOf({ config: { route: 'deepseek' } });
    expect(new URL(pro.url).pathname).toBe('/v1/chat/completions');
    const alias = await bodyOf({ config: { route: 'deepseek', model: 'deepseek-chat' } });
    expect(alias.body['model']).toBe('deepseek-v4-flash');
    expect(new URL(alias.url).pathname).toBe('/responses');
    // The beta route's strict tools are a chat feature: flash stays on chat there.
    const beta = await bodyOf({ config: { route: 'deepseek-beta', model: 'deepseek-v4-flash' } });
    expect(new URL(beta.url).pathname).toBe('/beta/chat/completions');
  });

  it('OpenCode Zen picks Responses, Messages or Chat by model', async () => {
    const gpt = await bodyOf({ config: { route: 'opencode-zen' } });
    expect(new URL(gpt.url).pathname).toBe('/zen/v1/responses');
    expect(gpt.body['model']).toBe('gpt-5.6-sol');
    expect(gpt.body['include']).toEqual(['reasoning.encrypted_content']);
    const claude = await bodyOf({ config: { route: 'opencode-zen', model: 'claude-sonnet-4-6' } });
    expect(new URL(claude.url).pathname).toBe('/zen/v1/messages');
    expect(exactRoute(claude.manifest).dialect).toBe('anthropic-messages');
    expect('thinking' in claude.body || 'include' in claude.body).toBe(false);
    const glm = await bodyOf({ config: { route: 'opencode-zen', model: 'glm-5.3' } });
    expect(new URL(glm.url).pathname).toBe('/zen/v1/chat/completions');
    expect(exactRoute(glm.manifest)).toMatchObject({ dialect: 'chat-completions', model_facts_source: 'route-row' });
  });
});

describe('prompt caching as row data', () => {
  it('Anthropic marks the last tool, the system prompt and the two latest user turns; the byte classes still add up', async () => {
    const result = await previewFor({
      config: { route: 'anthropic', reasoning: 'high' },
      history: HISTORY_WITH_TOOL_RESULTS,
    });
    const prepared = result.prepared;
    if (prepared === null) throw new Error('no prepared request');
    const body = prepared.body as { tools: { cache_control?: unknown }[]; system: unknown; messages: unknown[] };
    expect(validateWireBody('anthropic-messages', prepared.body).errors).toEqual([]);
    const ephemeral = { type: 'ephemeral' };
    expect(body.tools.at(-1)?.cache_control).toEqual(ephemeral);
    expect(body.tools.slice(0, -1).every((tool) => tool.cache_control === undefined)).toBe(true);
    expect(body.system).toEqual([{ type: 'text', text: prepared.system.text, cache_control: ephemeral }]);
    const marked = JSON.stringify(body.messages).split('"cache_control"').length - 1;
    expect(marked).toBe(2);
    // The latest user turn (the prompt) carries the last breakpoint.
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'fix the failing test', cache_control: ephemeral }],
    });
    const facts = exactBody(result.manifest);
    expect(facts.prompt_cache).toEqual({
      breakpoint_count: 4,
      breakpoint_regions: ['tools', 'system', 'messages', 'messages'],
      cache_key_field: null,
    });
    const classes = byteClasses(prepared.body, prepared.layout);
    expect(classes.system + classes.toolSchemas + classes.messages + classes.framing).toBe(classes.body);
    expect(facts.body_canonical_json_bytes).toBe(classes.body);
    expect(JSON.stringify(result.manifest)).not.toContain('fix the failing test');
  });

  it('other Messages routes mark the last tool only', async () => {
    for (const route of ['deepseek-anthropic', 'minimax-anthropic', 'openmodel']) {
      const { manifest } = await bodyOf({ config: { route } });
      expect(exactBody(manifest).prompt_cache.breakpoint_regions, route).toEqual(['tools']);
    }
  });

  it('Codex carries one prompt_cache_key per session: the same on the next turn, another for another session', async () => {
    const first = await bodyOf({ config: { route: 'codex' } });
    const key = first.body['prompt_cache_key'];
    expect(key).toMatch(/^cw-[0-9a-f]{40}$/);
    expect(exactBody(first.manifest).prompt_cache.cache_key_field).toBe('prompt_cache_key');
    const history = [
      { role: 'user', content: 'fix the failing test' },
      { role: 'assistant', content: 'Which test?' },
    ];
    const next = await previewFor({ config: { route: 'codex' }, history, prompt: 'the parser one' });
    expect(next.prepared?.body['prompt_cache_key']).toBe(key);
    const other = await bodyOf({ config: { route: 'codex', session: 'other' } });
    expect(other.body['prompt_cache_key']).not.toBe(key);
    expect(JSON.stringify(first.manifest)).not.toContain(String(key));
  });
});

describe('secrets out of prompts', () => {
  const GITHUB_TOKEN = `ghp_FAKE0test${'0'.repeat(28)}`;
  const history = [
    { role: 'user', content: 'read the env file' },
    { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":".env"}' }] },
    { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: `GITHUB_TOKEN=${GITHUB_TOKEN}\nDEBUG=1` },
    { role: 'assistant', content: 'It holds a token.' },
  ];
  const prompt = `call the API with api_key=${FAKE_KEY} please`;

  it('replaces secret shapes in user text and tool results with a marker, and the manifest counts them', async () => {
    const { body, manifest } = await bodyOf({ config: { route: 'deepseek' }, history, prompt });
    const text = JSON.stringify(body);
    expect(text).not.toContain(FAKE_KEY);
    expect(text).not.toContain(GITHUB_TOKEN);
    expect(text).toContain(`api_key=${OUTBOUND_SECRET_MARKER} please`);
    expect(text).toContain(`GITHUB_TOKEN=${OUTBOUND_SECRET_MARKER}\\nDEBUG=1`);
    expect(exactBody(manifest).outbound_redaction).toEqual({
      enabled: true,
      user_text_replacements: 1,
      tool_result_replacements: 1,
      system_prompt_replacements: 0,
    });
    expect(JSON.stringify(manifest)).not.toContain(FAKE_KEY);
  });

  it('redact_outbound: false sends the text as stored, and says so', async () => {
    const { body, manifest } = await bodyOf({ config: { route: 'deepseek', redact_outbound: false }, history, prompt });
    const text = JSON.stringify(body);
    expect(text).toContain(FAKE_KEY);
    expect(text).toContain(GITHUB_TOKEN);
    expect(exactBody(manifest).outbound_redaction).toEqual({
      enabled: false,
      user_text_replacements: 0,
      tool_result_replacements: 0,
      system_prompt_replacements: 0,
    });
  });

  it('leaves the stored session as typed: only the outbound copy changes', async () => {
    const result = await previewFor({ config: { route: 'deepseek' }, history, prompt });
    expect(JSON.stringify(result.snapshot.session.messages)).toContain(GITHUB_TOKEN);
  });
});
