// Every typed unavailable reason, reached through a real snapshot, with their precedence and
// propagation: an unavailable section publishes its reason and no fields; `tools` unavailability is
// inherited by `body`; `route` survives MCP; request-preparation failure takes route and body.
import type { CwSnapshot, RequestManifest } from '@cw/core';
import { ContextOverflowError } from '../core/src/plan/context-overflow-error.js';
import { builtinReasonTable } from '../core/src/features/builtin-reason-table.js';

const ROUTE_REASONS = builtinReasonTable().reasonsFor('route');
const TOOLS_REASONS = builtinReasonTable().reasonsFor('tools');
const BODY_REASONS = builtinReasonTable().reasonsFor('body');
import { afterAll, describe, expect, it } from 'vitest';
import { keysIn, sectionFieldNames } from './support/manifest-schema.js';
import {
  HISTORY_WITH_TOOL_RESULTS,
  previewFor,
  registryWithRows,
  removePreviewHomes,
  testRow,
} from './support/manifest-preview.js';

afterAll(removePreviewHomes);

/** What a real submit would still act on, set where each turn feature keeps it (its state, or config). */
interface PendingChanges {
  readonly goal?: 'none' | 'within-budget' | 'budget-exhausted' | 'not-snapshottable';
  readonly autoRouting?: boolean;
  readonly messageSubmitHooks?: number;
  readonly promptResolutionError?: string;
  readonly runtimeTransforms?: readonly string[];
}

const pending =
  (changes: PendingChanges) =>
  (snapshot: CwSnapshot): CwSnapshot => ({
    ...snapshot,
    pending: { runtimeTransforms: changes.runtimeTransforms ?? [] },
    config:
      changes.messageSubmitHooks === undefined
        ? snapshot.config
        : {
            ...snapshot.config,
            hooks: {
              ...snapshot.config.hooks,
              message_submit: Array.from({ length: changes.messageSubmitHooks }, () => ({
                command: ['true'],
                timeout_ms: 1_000,
              })),
            },
          },
    features: {
      ...snapshot.features,
      ...(changes.goal === undefined ? {} : { goal: changes.goal }),
      ...(changes.autoRouting ? { 'auto-route': { pending: true, choice: null } } : {}),
      ...(changes.promptResolutionError === undefined ? {} : { 'prompt-resolution': changes.promptResolutionError }),
    },
  });

type Section = 'route' | 'tools' | 'body';
const SECTIONS: readonly Section[] = ['route', 'tools', 'body'];

function reasonOf(manifest: RequestManifest, section: Section): string | null {
  const value = manifest[section];
  return 'unavailable' in value ? value.unavailable.reason : null;
}

function detailOf(manifest: RequestManifest, section: Section): string | null {
  const value = manifest[section];
  return 'unavailable' in value ? value.unavailable.detail : null;
}

/** No key of an unavailable section's facts appears anywhere in the JSON: not a null, not a stale value. */
function expectNoFieldsOf(manifest: RequestManifest, section: Section): void {
  const present = keysIn(JSON.parse(JSON.stringify(manifest)));
  const leaked = [...sectionFieldNames(section)].filter((name) => present.has(name));
  expect(leaked).toEqual([]);
}

function expectAllUnavailable(manifest: RequestManifest, reason: string): void {
  for (const section of SECTIONS) {
    expect(reasonOf(manifest, section)).toBe(reason);
    expectNoFieldsOf(manifest, section);
  }
}

describe('section field names are disjoint, so "no fields" checks are meaningful', () => {
  it('session, route, tools and body share no field name', () => {
    const names = {
      session: sectionFieldNames('session'),
      route: sectionFieldNames('route'),
      tools: sectionFieldNames('tools'),
      body: sectionFieldNames('body'),
    };
    const entries = Object.entries(names);
    for (const [i, [left, leftNames]] of entries.entries()) {
      for (const [right, rightNames] of entries.slice(i + 1)) {
        expect(
          [...leftNames].filter((name) => rightNames.has(name)),
          `${left} vs ${right}`,
        ).toEqual([]);
      }
    }
    expect(names.route.has('provider_id')).toBe(true);
    expect(names.tools.has('tool_surface_budget')).toBe(true);
    expect(names.body.has('body_sha256')).toBe(true);
  });
});

describe('turn-level reasons take all three sections', () => {
  it('no prompt on a fixed route: no-hypothetical-prompt-supplied', async () => {
    const { manifest, prepared } = await previewFor({ prompt: undefined });
    expectAllUnavailable(manifest, 'no-hypothetical-prompt-supplied');
    expect(manifest.session.hypothetical_prompt_supplied).toBe(false);
    expect(manifest.session.requested_route).toBe('deepseek');
    expect(prepared).toBeNull();
  });

  it('auto routing without a prompt: auto-route-unresolved-until-next-prompt, and requested_model reads auto', async () => {
    const { manifest } = await previewFor({ prompt: undefined, adjust: pending({ autoRouting: true }) });
    expectAllUnavailable(manifest, 'auto-route-unresolved-until-next-prompt');
    expect(manifest.session.requested_model).toBe('auto');
    expect(manifest.session.requested_route).toBe('auto');
    expect(manifest.session.routing_mode).toBe('auto');
    const text = JSON.stringify(manifest);
    for (const forbidden of [
      'provider_id',
      'route_id',
      'dialect',
      'endpoint_host',
      'endpoint_fingerprint',
      'wire_model',
      'billing',
      'tool_surface_budget',
      'body_sha256',
    ]) {
      expect(text).not.toContain(forbidden);
    }
  });

  it('auto routing with a prompt: auto-route-classification-not-executed, decided after hooks and prompt resolution as a send meets them', async () => {
    const { manifest } = await previewFor({ adjust: pending({ autoRouting: true }) });
    expectAllUnavailable(manifest, 'auto-route-classification-not-executed');
    expect(JSON.stringify(manifest)).not.toContain('endpoint_host_class');
    // A send runs the hooks and resolves the prompt before it asks the classifier: preview reports them first.
    const hooked = await previewFor({
      adjust: pending({ autoRouting: true, messageSubmitHooks: 2, promptResolutionError: 'cannot read x' }),
    });
    expectAllUnavailable(hooked.manifest, 'message-submit-hooks-not-executed');
    const unresolved = await previewFor({
      adjust: pending({ autoRouting: true, promptResolutionError: 'cannot read x' }),
    });
    expectAllUnavailable(unresolved.manifest, 'prompt-resolution-failed');
  });

  it('message-submit hooks win over a prompt-resolution failure, even on a fixed route', async () => {
    const { manifest } = await previewFor({
      adjust: pending({ messageSubmitHooks: 1, promptResolutionError: 'cannot read x' }),
    });
    expectAllUnavailable(manifest, 'message-submit-hooks-not-executed');
    expect(manifest.session.routing_mode).toBe('fixed-route');
  });

  it('prompt-resolution-failed carries a redacted detail', async () => {
    const { manifest } = await previewFor({
      adjust: pending({
        promptResolutionError: "mention @notes.md: cannot read /home/someone/notes.md for 'my-skill'",
      }),
    });
    expectAllUnavailable(manifest, 'prompt-resolution-failed');
    const detail = detailOf(manifest, 'route') ?? '';
    expect(detail).toContain('<path-redacted>');
    expect(JSON.stringify(manifest)).not.toContain('/home/someone');
    expect(JSON.stringify(manifest)).not.toContain("my-skill'");
  });

  it('route-plan-failed for an unknown route; the hostile id never appears', async () => {
    const hostile = 'https://internal.example.com/v1/deployments/prod-key-8f2a';
    const { manifest } = await previewFor({ config: { route: 'my-gateway' } });
    expectAllUnavailable(manifest, 'route-plan-failed');
    expect(manifest.session.hypothetical_prompt_supplied).toBe(true);
    const hostileRun = await previewFor({ config: { route: hostile.slice(0, 64) } });
    expectAllUnavailable(hostileRun.manifest, 'route-plan-failed');
    // The error allowlist keeps scheme://host of a URL and never its path.
    const text = JSON.stringify(hostileRun.manifest);
    expect(text).not.toContain('deployments');
    expect(text).not.toContain('prod-key');
    expect(hostileRun.manifest.session.requested_route).toMatch(/^sha256:[0-9a-f]{12}$/);
  });

  it('goal-token-budget-exhausted comes before everything, even the missing prompt', async () => {
    for (const prompt of ['go on', undefined]) {
      const { manifest } = await previewFor({
        prompt,
        adjust: pending({ goal: 'budget-exhausted', autoRouting: true }),
      });
      expectAllUnavailable(manifest, 'goal-token-budget-exhausted');
    }
  });

  it('goal-state-not-snapshottable comes first of all', async () => {
    const { manifest } = await previewFor({ adjust: pending({ goal: 'not-snapshottable', messageSubmitHooks: 1 }) });
    expectAllUnavailable(manifest, 'goal-state-not-snapshottable');
  });

  it('an active goal within its budget does not block the preview', async () => {
    const { manifest } = await previewFor({ adjust: pending({ goal: 'within-budget' }) });
    for (const section of SECTIONS) expect(reasonOf(manifest, section)).toBeNull();
  });
});

describe('MCP state: tools unavailable, body inherits, route survives', () => {
  it('configured MCP servers without a snapshot', async () => {
    const { manifest, prepared } = await previewFor({
      config: { mcpServers: { files: { command: 'files-mcp' }, web: { command: 'web-mcp' } } },
    });
    expect(reasonOf(manifest, 'route')).toBeNull();
    expect(reasonOf(manifest, 'tools')).toBe('mcp-state-not-snapshottable');
    expect(reasonOf(manifest, 'body')).toBe('mcp-state-not-snapshottable');
    // The body inherits the tools' unavailable value whole: reason and detail.
    expect(manifest.body).toEqual(manifest.tools);
    expect(detailOf(manifest, 'tools')).toContain('have no snapshot matching their config');
    expectNoFieldsOf(manifest, 'tools');
    expectNoFieldsOf(manifest, 'body');
    const text = JSON.stringify(manifest);
    for (const forbidden of [
      'body_sha256',
      'local_system_tools_component_sha256',
      'tool_schema_wire_sha256',
      'body_canonical_json_bytes',
      'estimated_input_headroom_tokens',
    ]) {
      expect(text).not.toContain(forbidden);
    }
    expect(text).toContain('mcp-state-not-snapshottable');
    expect(prepared).toBeNull();
  });

  it('disabled servers do not count', async () => {
    const { manifest } = await previewFor({
      config: { mcpServers: { files: { command: 'files-mcp', disabled: true } } },
    });
    expect(reasonOf(manifest, 'tools')).toBeNull();
  });

  it('a snapshot that matches the config is exact, and its tools are counted', async () => {
    const { manifest } = await previewFor({
      adjust: (snapshot) => ({
        ...snapshot,
        mcp: { kind: 'snapshot', serverCount: 1 },
        catalog: [
          ...snapshot.catalog,
          {
            name: 'fetch_page',
            description: 'Fetch a web page.',
            input_schema: { type: 'object', properties: {} },
            origin: { kind: 'mcp', server: 'web' },
            deferred: false,
          },
        ],
      }),
    });
    expect('exact' in manifest.tools && manifest.tools.exact.mcp_server_count).toBe(1);
    expect('exact' in manifest.tools && manifest.tools.exact.mcp_tool_count).toBe(1);
    expect('exact' in manifest.body).toBe(true);
  });
});

describe('request preparation failures take route and body; a projected tool surface survives', () => {
  it('a buildBody tap that throws', async () => {
    const registry = await registryWithRows([testRow('explode', 'chat-completions')]);
    registry.apiFor('@cw/test-explode').refineBody({ routeIds: ['explode'] }, () => {
      throw new Error("cannot shape for 'prod-key-8f2a' at /home/someone/.config");
    });
    const { manifest, prepared } = await previewFor({ registry, config: { route: 'explode' } });
    expect(reasonOf(manifest, 'route')).toBe('request-preparation-failed');
    expect(reasonOf(manifest, 'body')).toBe('request-preparation-failed');
    expect(reasonOf(manifest, 'tools')).toBeNull();
    expect(detailOf(manifest, 'route')).toBe(detailOf(manifest, 'body'));
    expectNoFieldsOf(manifest, 'route');
    expectNoFieldsOf(manifest, 'body');
    const text = JSON.stringify(manifest);
    expect(text).not.toContain('prod-key-8f2a');
    expect(text).not.toContain('/home/someone');
    expect(prepared).toBeNull();
  });

  it('a body that is not valid JSON', async () => {
    const registry = await registryWithRows([testRow('nan', 'chat-completions')]);
    registry.apiFor('@cw/test-nan').refineBody({ routeIds: ['nan'] }, (body) => ({ ...body, temperature: Number.NaN }));
    const { manifest } = await previewFor({ registry, config: { route: 'nan' } });
    expect(reasonOf(manifest, 'route')).toBe('request-preparation-failed');
    expect(reasonOf(manifest, 'tools')).toBeNull();
    expect(reasonOf(manifest, 'body')).toBe('request-preparation-failed');
  });

  it('a dialect whose describer throws', async () => {
    const registry = await registryWithRows([{ ...testRow('mute', 'chat-completions'), dialect: 'mute-dialect' }]);
    registry.apiFor('@cw/test-mute').addDialect({
      id: 'mute-dialect',
      buildBody: (context) => ({ model: context.wireModel }),
      describeBody: () => {
        throw new Error('no idea');
      },
      createDecoder: () => ({ push: () => [], end: () => [] }),
    });
    const { manifest } = await previewFor({ registry, config: { route: 'mute' } });
    expect(reasonOf(manifest, 'route')).toBe('request-preparation-failed');
    expect(reasonOf(manifest, 'tools')).toBeNull();
    expect(detailOf(manifest, 'body')).toContain('describing');
  });

  it('a projection tap that throws leaves no tool surface: all three fail', async () => {
    const registry = await registryWithRows([]);
    registry.hooks.projectTools.tap({ name: '@cw/test-projection', stage: 10 }, () => {
      throw new Error('projection exploded');
    });
    const { manifest } = await previewFor({ registry });
    expectAllUnavailable(manifest, 'request-preparation-failed');
  });

  it('with MCP unsnapshottable too, tools keep their own reason while route and body fail', async () => {
    const registry = await registryWithRows([testRow('explode', 'chat-completions')]);
    registry.apiFor('@cw/test-explode').refineBody({ routeIds: ['explode'] }, () => {
      throw new Error('boom');
    });
    const { manifest } = await previewFor({
      registry,
      config: { route: 'explode', mcpServers: { files: { command: 'files-mcp' } } },
    });
    expect(reasonOf(manifest, 'route')).toBe('request-preparation-failed');
    expect(reasonOf(manifest, 'tools')).toBe('mcp-state-not-snapshottable');
    expect(reasonOf(manifest, 'body')).toBe('request-preparation-failed');
  });
});

describe('runtime transforms take only the body', () => {
  it('a pending transform: body unavailable with the transform as detail; route and tools exact', async () => {
    const transform = 'pending LSP diagnostics would be injected as a synthetic message';
    const { manifest, prepared } = await previewFor({ adjust: pending({ runtimeTransforms: [transform] }) });
    expect(reasonOf(manifest, 'route')).toBeNull();
    expect(reasonOf(manifest, 'tools')).toBeNull();
    expect(reasonOf(manifest, 'body')).toBe('runtime-transforms-before-send');
    expect(detailOf(manifest, 'body')).toBe(transform);
    expectNoFieldsOf(manifest, 'body');
    expect(prepared).toBeNull();
  });

  it('a turn that overflows the input budget: negative headroom makes the body unavailable', async () => {
    const history = Array.from({ length: 12 }, (_unused, index) => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: 'x'.repeat(2_000),
    }));
    const config = {
      route: 'small',
      routes: {
        small: {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: 'http://127.0.0.1:9/v1',
          model: 'm',
          context_window: 8_192,
          max_output_tokens: 1_024,
        },
      },
      compaction: { enabled: false },
    };
    const { manifest, plan } = await previewFor({ config, history });
    expect(reasonOf(manifest, 'route')).toBeNull();
    expect(reasonOf(manifest, 'tools')).toBeNull();
    expect(reasonOf(manifest, 'body')).toBe('input-budget-exceeded');
    expect(detailOf(manifest, 'body')).toMatch(/^about \d+ input tokens against an input budget of 6144$/);
    // The plan keeps the typed error send rethrows, with the figures the detail prints.
    if (plan.status !== 'blocked' || !(plan.error instanceof ContextOverflowError)) throw new Error('not an overflow');
    expect(plan.error.overflow.inputBudgetTokens).toBe(8_192 - 1_024 - 1_024);
    expect(plan.error.overflow.estimatedInputTokens > plan.error.overflow.inputBudgetTokens).toBe(true);
    // The same conversation fits the default route: headroom is positive there and the body is exact.
    const roomy = await previewFor({ history });
    expect('exact' in roomy.manifest.body && roomy.manifest.body.exact.estimated_input_headroom_tokens > 0).toBe(true);
  });

  it('pending transforms come before the budget check: the transform may change what fits', async () => {
    const config = {
      route: 'tiny',
      routes: {
        tiny: {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: 'http://127.0.0.1:9/v1',
          model: 'm',
          context_window: 1_500,
        },
      },
    };
    const { manifest } = await previewFor({
      config,
      adjust: pending({ runtimeTransforms: ['auto-compaction would rewrite the conversation first'] }),
    });
    expect(reasonOf(manifest, 'body')).toBe('runtime-transforms-before-send');
    expect(detailOf(manifest, 'body')).toBe('auto-compaction would rewrite the conversation first');
  });
});

describe('exact previews', () => {
  it('every section exact; usage typed unavailable; no export of content', async () => {
    const { manifest, prepared } = await previewFor({ history: HISTORY_WITH_TOOL_RESULTS });
    for (const section of SECTIONS) expect(reasonOf(manifest, section)).toBeNull();
    expect(prepared).not.toBeNull();
    const body = 'exact' in manifest.body ? manifest.body.exact : null;
    expect(body?.provider_reported_usage).toEqual({
      unavailable: { reason: 'provider-request-not-executed', detail: null },
    });
    const text = JSON.stringify(manifest);
    expect(text).not.toContain('"input_tokens"');
    // No object carries a messages array, content or a schema: this is not a request-body export.
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === 'object' && node !== null) {
        for (const [key, child] of Object.entries(node)) {
          expect(key === 'messages' && Array.isArray(child)).toBe(false);
          expect(['content', 'input_schema', 'parameters']).not.toContain(key);
          walk(child);
        }
      }
    };
    walk(manifest);
    for (const secret of ['README.md', 'list the files', 'fix the failing test', 'three entries'])
      expect(text).not.toContain(secret);
  });

  it('the per-section reason lists are what the schema accepts', () => {
    expect(ROUTE_REASONS).not.toContain('mcp-state-not-snapshottable');
    expect(ROUTE_REASONS).not.toContain('runtime-transforms-before-send');
    expect(TOOLS_REASONS).not.toContain('runtime-transforms-before-send');
    expect(BODY_REASONS).toContain('runtime-transforms-before-send');
    expect(BODY_REASONS).toContain('mcp-state-not-snapshottable');
  });
});
