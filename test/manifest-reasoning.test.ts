// The reasoning receipt, per route: which keys carry the control, where the effort (or budget) was
// read, and whether it came from the user or the route. Rows are registered through the plugin API,
// including routes whose control lives at paths no fixed list of well-known keys covers.
import type { CapabilityRowInput, JsonValue, WireBody } from '@cw/core/plugin';
import type { BodyFacts } from '../core/src/manifest/manifest-schema.js';
import { afterAll, describe, expect, it } from 'vitest';
import { previewFor, registryWithRows, removePreviewHomes, testRow } from './support/manifest-preview.js';

afterAll(removePreviewHomes);

type Reasoning = NonNullable<CapabilityRowInput['reasoning']>;
const TIERS = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

function reasoningRow(
  routeId: string,
  dialect: Parameters<typeof testRow>[1],
  reasoning: Reasoning,
): CapabilityRowInput {
  return testRow(routeId, dialect, { reasoning });
}

const efforts = (map: (tier: (typeof TIERS)[number]) => string | number | boolean | null): Reasoning['values'] =>
  Object.fromEntries(TIERS.map((tier) => [tier, map(tier)]));
const alsoSetAll = (paths: Record<string, string | boolean>): Reasoning['also_set'] =>
  Object.fromEntries(TIERS.map((tier) => [tier, paths]));

const ROWS: CapabilityRowInput[] = [
  reasoningRow('kimi-like', 'chat-completions', {
    key_path: 'thinking.effort',
    value_kind: 'effort',
    values: efforts((tier) =>
      tier === 'off' || tier === 'minimal' ? 'low' : tier === 'medium' ? 'high' : tier === 'xhigh' ? 'max' : tier,
    ),
    also_set: alsoSetAll({ 'thinking.type': 'enabled' }),
    default_tier: null,
  }),
  reasoningRow('responses-effort', 'openai-responses', {
    key_path: 'reasoning.effort',
    value_kind: 'effort',
    values: efforts((tier) => (tier === 'off' ? 'minimal' : tier === 'max' ? 'xhigh' : tier)),
    default_tier: 'medium',
  }),
  reasoningRow('anthropic-adaptive', 'anthropic-messages', {
    key_path: 'output_config.effort',
    value_kind: 'effort',
    values: efforts((tier) => (tier === 'off' ? null : tier === 'xhigh' ? 'max' : tier === 'minimal' ? 'low' : tier)),
    also_set: { ...alsoSetAll({ 'thinking.type': 'adaptive' }), off: {} },
    default_tier: null,
  }),
  reasoningRow('anthropic-budget', 'anthropic-messages', {
    key_path: 'thinking.budget_tokens',
    value_kind: 'budget',
    values: efforts((tier) =>
      tier === 'off'
        ? null
        : tier === 'low' || tier === 'minimal'
          ? 4_096
          : tier === 'medium'
            ? 8_192
            : tier === 'high'
              ? 16_384
              : 32_768,
    ),
    also_set: { ...alsoSetAll({ 'thinking.type': 'enabled' }), off: {} },
    default_tier: 'high',
  }),
  reasoningRow('nim-like', 'chat-completions', {
    key_path: 'chat_template_kwargs.reasoning_effort',
    value_kind: 'effort',
    values: efforts((tier) => (tier === 'off' ? null : tier === 'max' || tier === 'xhigh' ? 'max' : 'high')),
    also_set: alsoSetAll({ 'chat_template_kwargs.thinking': true }),
    default_tier: 'high',
  }),
  reasoningRow('toggle-only', 'chat-completions', {
    key_path: 'enable_thinking',
    value_kind: 'toggle',
    values: efforts((tier) => tier !== 'off'),
    default_tier: null,
  }),
  reasoningRow('google-like', 'chat-completions', {
    key_path: 'google.thinking_config.thinking_level',
    value_kind: 'effort',
    values: efforts((tier) => (['off', 'minimal', 'low', 'medium'].includes(tier) ? 'low' : 'high')),
    default_tier: 'high',
  }),
  reasoningRow('camel-case-path', 'chat-completions', {
    key_path: 'extraConfig.thinkingConfig.thinkingLevel',
    value_kind: 'effort',
    values: efforts((tier) => (tier === 'off' ? null : 'HIGH')),
    default_tier: 'high',
  }),
];

async function receiptFor(route: string, reasoning?: string): Promise<{ body: BodyFacts; wire: WireBody }> {
  const registry = await registryWithRows(ROWS);
  const config: Record<string, unknown> = { route };
  if (reasoning) config['reasoning'] = reasoning;
  const { manifest, prepared } = await previewFor({ registry, config });
  if (!('exact' in manifest.body) || prepared === null)
    throw new Error(`body unavailable: ${JSON.stringify(manifest.body)}`);
  return { body: manifest.body.exact, wire: prepared.body };
}

function valueAt(body: WireBody, path: string): JsonValue | undefined {
  let node: JsonValue | undefined = body;
  for (const key of path.split('.'))
    node = typeof node === 'object' && node !== null && !Array.isArray(node) ? node[key] : undefined;
  return node;
}

/** Every reported key is on the body, and the effort/budget is readable at the reported path. */
function expectConsistent(body: BodyFacts, wire: WireBody): void {
  for (const key of body.reasoning_wire_control_keys) expect(wire[key], key).toBeDefined();
  if (body.reasoning_wire_effort_source !== null)
    expect(valueAt(wire, body.reasoning_wire_effort_source)).toBe(body.reasoning_wire_effort);
  if (body.reasoning_wire_budget_source !== null)
    expect(valueAt(wire, body.reasoning_wire_budget_source)).toBe(body.reasoning_wire_budget_tokens);
}

const CASES: readonly {
  name: string;
  route: string;
  reasoning?: string;
  keys: string[];
  effort: string | null;
  source: string | null;
  budget?: [number, string];
  resolution: BodyFacts['reasoning_resolution'];
}[] = [
  {
    name: 'DeepSeek default: flat reasoning_effort + thinking toggle, at max',
    route: 'deepseek',
    keys: ['reasoning_effort', 'thinking'],
    effort: 'max',
    source: 'reasoning_effort',
    resolution: 'route-default',
  },
  {
    name: 'DeepSeek max, explicit',
    route: 'deepseek',
    reasoning: 'max',
    keys: ['reasoning_effort', 'thinking'],
    effort: 'max',
    source: 'reasoning_effort',
    resolution: 'explicit',
  },
  {
    name: 'DeepSeek off: the toggle alone, still an explicit control',
    route: 'deepseek',
    reasoning: 'off',
    keys: ['thinking'],
    effort: null,
    source: null,
    resolution: 'explicit',
  },
  {
    name: 'nested thinking.effort (Kimi Code K3 shape)',
    route: 'kimi-like',
    reasoning: 'off',
    keys: ['thinking'],
    effort: 'low',
    source: 'thinking.effort',
    resolution: 'explicit',
  },
  {
    name: 'nested thinking.effort, no selection and no default: nothing sent',
    route: 'kimi-like',
    keys: [],
    effort: null,
    source: null,
    resolution: 'not-applicable',
  },
  {
    name: 'Responses reasoning.effort, route default',
    route: 'responses-effort',
    keys: ['reasoning'],
    effort: 'medium',
    source: 'reasoning.effort',
    resolution: 'route-default',
  },
  {
    name: 'Anthropic adaptive: output_config.effort beside thinking',
    route: 'anthropic-adaptive',
    reasoning: 'xhigh',
    keys: ['thinking', 'output_config'],
    effort: 'max',
    source: 'output_config.effort',
    resolution: 'explicit',
  },
  {
    name: 'Anthropic adaptive off: no control',
    route: 'anthropic-adaptive',
    reasoning: 'off',
    keys: [],
    effort: null,
    source: null,
    resolution: 'not-applicable',
  },
  {
    name: 'Anthropic gateway budget: thinking.budget_tokens',
    route: 'anthropic-budget',
    keys: ['thinking'],
    effort: null,
    source: null,
    budget: [16_384, 'thinking.budget_tokens'],
    resolution: 'route-default',
  },
  {
    name: 'NIM shape: chat_template_kwargs.reasoning_effort',
    route: 'nim-like',
    reasoning: 'max',
    keys: ['chat_template_kwargs'],
    effort: 'max',
    source: 'chat_template_kwargs.reasoning_effort',
    resolution: 'explicit',
  },
  {
    name: 'toggle-only route: enable_thinking',
    route: 'toggle-only',
    reasoning: 'high',
    keys: ['enable_thinking'],
    effort: null,
    source: null,
    resolution: 'explicit',
  },
  {
    name: 'Google shape: google.thinking_config.thinking_level',
    route: 'google-like',
    keys: ['google'],
    effort: 'high',
    source: 'google.thinking_config.thinking_level',
    resolution: 'route-default',
  },
  {
    // Three dotted camelCase keys have the shape of a host name; as a key path it is printed as it is.
    name: 'camelCase three-key path: extraConfig.thinkingConfig.thinkingLevel',
    route: 'camel-case-path',
    keys: ['extraConfig'],
    effort: 'HIGH',
    source: 'extraConfig.thinkingConfig.thinkingLevel',
    resolution: 'route-default',
  },
];

describe('reasoning key paths per route', () => {
  for (const entry of CASES) {
    it(entry.name, async () => {
      const { body, wire } = await receiptFor(entry.route, entry.reasoning);
      expect(body.reasoning_wire_control_keys).toEqual(entry.keys);
      expect(body.reasoning_wire_effort).toBe(entry.effort);
      expect(body.reasoning_wire_effort_source).toBe(entry.source);
      expect(body.reasoning_wire_budget_tokens).toBe(entry.budget?.[0] ?? null);
      expect(body.reasoning_wire_budget_source).toBe(entry.budget?.[1] ?? null);
      expect(body.reasoning_resolution).toBe(entry.resolution);
      expectConsistent(body, wire);
    });
  }

  it('a custom route sends no control: not-applicable', async () => {
    const config = {
      route: 'c',
      routes: { c: { provider: 'custom', dialect: 'chat-completions', base_url: 'http://127.0.0.1:9/v1', model: 'm' } },
    };
    const { manifest } = await previewFor({ config });
    expect(manifest.body).toMatchObject({
      exact: { reasoning_resolution: 'not-applicable', reasoning_wire_control_keys: [], reasoning_wire_effort: null },
    });
  });

  it('Responses `include` alone discloses reasoning output and does not request any', async () => {
    const registry = await registryWithRows([testRow('include-only', 'openai-responses')]);
    registry
      .apiFor('@cw/test-include')
      .refineBody({ routeIds: ['include-only'] }, (body) => ({ ...body, include: ['reasoning.encrypted_content'] }));
    const { manifest } = await previewFor({ registry, config: { route: 'include-only' } });
    expect(manifest.body).toMatchObject({
      exact: {
        reasoning_wire_control_keys: ['include'],
        reasoning_resolution: 'not-applicable',
        reasoning_wire_effort: null,
      },
    });
  });

  it('a control a plugin tap wrote without any plan is reported as route-default', async () => {
    const registry = await registryWithRows([testRow('tap-thinks', 'chat-completions')]);
    registry
      .apiFor('@cw/test-thinks')
      .refineBody({ routeIds: ['tap-thinks'] }, (body) => ({ ...body, thinking: { type: 'enabled', effort: 'max' } }));
    const { manifest } = await previewFor({ registry, config: { route: 'tap-thinks' } });
    expect(manifest.body).toMatchObject({
      exact: {
        reasoning_wire_control_keys: ['thinking'],
        reasoning_wire_effort: 'max',
        reasoning_wire_effort_source: 'thinking.effort',
        reasoning_resolution: 'route-default',
      },
    });
  });

  it('DeepSeek thinking omits tool_choice; off keeps it', async () => {
    const thinking = await receiptFor('deepseek');
    expect(thinking.body.tool_choice).toBeNull();
    expect(thinking.wire['tool_choice']).toBeUndefined();
    const off = await receiptFor('deepseek', 'off');
    expect(off.body.tool_choice).toBe('auto');
  });
});
