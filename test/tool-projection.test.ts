import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewRequest, resolveModelFacts, runTurn, type CwSnapshot, type PluginRegistry } from '@cw/core';
import { BUILTIN_TOOLS } from './support/workspace-tools.js';
import { prepareOutboundRequest } from '../core/src/prepare-outbound-request.js';
import type { JsonSchema, ToolDefinition } from '../core/src/tools/tool-definition.js';
import type { ToolOutcome } from '../core/src/tools/tool-projection-types.js';
import {
  CW_BIN,
  FAKE_KEY,
  REPO_ROOT,
  builtinRegistry,
  removeHome,
  snapshotOf,
  tempHome,
} from './support/cw-fixture.js';
import { validateWireBody, type WireDialect } from './support/wire-schemas.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { withoutNoSandboxNotice } from './support/require-bubblewrap.js';
import { readTurn } from './support/turn-events.js';

const execFileAsync = promisify(execFile);

interface CorpusCase {
  readonly name: string;
  readonly why: string;
  readonly schema: JsonSchema;
  readonly expect: Record<string, 'exact' | string[]>;
}
const corpus = JSON.parse(
  await readFile(join(REPO_ROOT, 'core/src/tools/projection/projection-corpus.json'), 'utf8'),
) as { cases: CorpusCase[] };
// Schema dialects a plugin defines (as row data) have their corpus outcomes pinned beside the tests.
const PLUGIN_DIALECT_OUTCOMES: Record<string, Record<string, 'exact' | string[]>> = {
  'gemini-json-schema': (
    JSON.parse(
      await readFile(join(REPO_ROOT, 'test/fixtures/projection/gemini-json-schema-outcomes.json'), 'utf8'),
    ) as { expect: Record<string, 'exact' | string[]> }
  ).expect,
};

function mcpTool(name: string, input_schema: JsonSchema, deferred = false): ToolDefinition {
  return { name, description: `MCP tool ${name}.`, input_schema, origin: { kind: 'mcp', server: 'wild' }, deferred };
}

const corpusTools = corpus.cases.map((entry) => mcpTool(entry.name, entry.schema));
const byName = (name: string): ToolDefinition => {
  const found = corpusTools.find((tool) => tool.name === name);
  if (!found) throw new Error(name);
  return found;
};

let registry: PluginRegistry;
let home: string;
let base: CwSnapshot;

beforeAll(async () => {
  registry = await builtinRegistry();
  home = await tempHome();
  base = await snapshotOf(home, registry);
});
afterAll(async () => {
  await removeHome(home);
});

function on(routeId: string, catalog: readonly ToolDefinition[]): CwSnapshot {
  return { ...base, config: { ...base.config, route: routeId }, catalog, mcp: { kind: 'snapshot', serverCount: 1 } };
}

function summary(outcomes: readonly ToolOutcome[]): Record<string, string> {
  return Object.fromEntries(
    outcomes.map((entry) => [
      entry.name,
      entry.outcome === 'exact'
        ? 'exact'
        : entry.outcome === 'relaxed'
          ? `relaxed:${entry.rules.join('+')}`
          : `omitted:${entry.reason}`,
    ]),
  );
}

/** Every manifest a test produces must validate against the published schema. */
function validatedPreview(...args: Parameters<typeof previewRequest>): ReturnType<typeof previewRequest> {
  const result = previewRequest(...args);
  expectValidManifest(result.manifest);
  return result;
}

describe('one catalog, projected per route', () => {
  // fetch needs relaxing for MFJS; a digit-leading name and a patternProperties map cannot go at all.
  const catalog = [...BUILTIN_TOOLS, byName('fetch'), byName('21st_magic_component_builder'), byName('set_headers')];

  it('on a Moonshot route: the MFJS-incompatible tools are relaxed or omitted, the rest stay exact, and the request is built', () => {
    const { prepared, manifest } = validatedPreview(on('moonshot', catalog), 'hello', 'streaming');
    expect(prepared).not.toBeNull();
    expect(summary(prepared?.projection.outcomes ?? [])).toEqual({
      ...Object.fromEntries(BUILTIN_TOOLS.map((tool) => [tool.name, 'exact'])),
      fetch: 'relaxed:const-to-enum+infer-literal-type+constraints-to-description',
      '21st_magic_component_builder': 'omitted:name-not-accepted',
      set_headers: 'omitted:keyword-not-accepted',
    });
    const sent = ((prepared?.body['tools'] ?? []) as { function: { name: string } }[]).map(
      (tool) => tool.function.name,
    );
    expect(sent).toEqual([...BUILTIN_TOOLS.map((tool) => tool.name), 'fetch']);
    expect(validateWireBody('chat-completions', prepared?.body).errors).toEqual([]);
    // The manifest's tools section reads the same projection: counts per outcome and the bounded list.
    const tools = 'exact' in manifest.tools ? manifest.tools.exact : null;
    expect(tools?.projection).toMatchObject({
      exact_count: 5,
      relaxed_count: 1,
      omitted_count: 2,
      more_changed_count: 0,
    });
    expect(tools?.projection.changed).toEqual([
      {
        name: 'fetch',
        tool_origin: 'mcp',
        outcome: 'relaxed',
        codes: ['const-to-enum', 'infer-literal-type', 'constraints-to-description'],
      },
      { name: '21st_magic_component_builder', tool_origin: 'mcp', outcome: 'omitted', codes: ['name-not-accepted'] },
      { name: 'set_headers', tool_origin: 'mcp', outcome: 'omitted', codes: ['keyword-not-accepted'] },
    ]);
    expect(prepared?.projection.warning?.message).toBe(
      '2 tools cannot be sent on route moonshot and were left off: 21st_magic_component_builder (name-not-accepted), set_headers (keyword-not-accepted)',
    );
  });

  it('a record whose string key schema carries a description is sent on the routes that refuse propertyNames', () => {
    // What zod 4 writes for z.record(z.string().describe(…), …): the key schema is always true.
    const record = mcpTool('set_labels', {
      type: 'object',
      properties: {
        labels: {
          type: 'object',
          propertyNames: { type: 'string', description: 'A label name.' },
          additionalProperties: { type: 'string' },
        },
      },
      required: ['labels'],
    });
    for (const routeId of ['moonshot', 'kimi-code-k3', 'moonshot-k3', 'gemini']) {
      const { prepared } = validatedPreview(on(routeId, [record]), 'hello', 'streaming');
      const outcome = prepared?.projection.outcomes.find((entry) => entry.name === 'set_labels');
      expect(outcome?.outcome, routeId).toBe('relaxed');
      expect(outcome?.outcome === 'relaxed' ? outcome.rules : [], routeId).toContain('drop-string-property-names');
      expect(JSON.stringify(prepared?.body), routeId).toContain('set_labels');
      expect(JSON.stringify(prepared?.body), routeId).not.toContain('propertyNames');
    }
  });

  it('on an OpenAI-compatible route the same catalog is exact, and sent as authored', () => {
    for (const routeId of ['deepseek', 'openrouter', 'vllm']) {
      const { prepared } = validatedPreview(on(routeId, catalog), 'hello', 'streaming');
      expect(new Set(prepared?.projection.outcomes.map((entry) => entry.outcome)), routeId).toEqual(new Set(['exact']));
      expect(prepared?.projection.warning).toBeNull();
      const fetch = ((prepared?.body['tools'] ?? []) as { function: { name: string; parameters: unknown } }[]).find(
        (tool) => tool.function.name === 'fetch',
      );
      expect(fetch?.function.parameters).toEqual(byName('fetch').input_schema);
    }
  });

  it('streaming and blocking dispatch carry the same typed warning on the prepared request', () => {
    const snapshot = on('moonshot', catalog);
    const streaming = prepareOutboundRequest(snapshot, 'hello', 'streaming');
    const blocking = prepareOutboundRequest(snapshot, 'hello', 'blocking');
    expect(streaming.projection.warning).not.toBeNull();
    expect(blocking.projection.warning).toEqual(streaming.projection.warning);
    expect(blocking.projection.wireTools).toEqual(streaming.projection.wireTools);
    expect(streaming.canonical.wireText).not.toBe(blocking.canonical.wireText); // different bodies, one projection
  });

  it('bounds the manifest list to eight tools and counts the rest', () => {
    const many = Array.from({ length: 11 }, (_, index) =>
      mcpTool(`9tool_${index}`, { type: 'object', properties: {} }),
    );
    const { manifest, prepared } = validatedPreview(on('moonshot', [...BUILTIN_TOOLS, ...many]), 'hello', 'blocking');
    const tools = 'exact' in manifest.tools ? manifest.tools.exact : null;
    expect(tools?.projection.changed).toHaveLength(8);
    expect(tools?.projection.more_changed_count).toBe(3);
    expect(prepared?.projection.warning?.omitted).toHaveLength(8);
    expect(prepared?.projection.warning?.more).toBe(3);
  });

  it('projects deferred tools for tool search: an omitted one is never offered', () => {
    const deferred = [
      mcpTool('later_fetch', byName('fetch').input_schema, true),
      mcpTool('later_headers', byName('set_headers').input_schema, true),
    ];
    const { prepared } = validatedPreview(on('moonshot', [...BUILTIN_TOOLS, ...deferred]), 'hello', 'streaming');
    expect(summary(prepared?.projection.deferred ?? [])).toEqual({
      later_fetch: 'relaxed:const-to-enum+infer-literal-type+constraints-to-description',
      later_headers: 'omitted:keyword-not-accepted',
    });
    expect(prepared?.projection.deferredWireTools.map((tool) => tool.name)).toEqual(['later_fetch']);
    // Deferred tools are not on this request's wire.
    expect(prepared?.projection.wireTools.map((tool) => tool.name)).toEqual(BUILTIN_TOOLS.map((tool) => tool.name));
  });

  it('flattens a root union on Anthropic and Responses routes, and the body keeps an object input_schema', () => {
    for (const [routeId, dialect] of [
      ['anthropic', 'anthropic-messages'],
      ['codex', 'openai-responses'],
      ['xai', 'chat-completions'],
    ] as const) {
      const { prepared } = validatedPreview(
        on(routeId, [...BUILTIN_TOOLS, byName('apply_patch')]),
        'hello',
        'streaming',
      );
      expect(prepared?.projection.outcomes.at(-1), routeId).toEqual({
        name: 'apply_patch',
        outcome: 'relaxed',
        rules: ['flatten-root-union'],
      });
      expect(validateWireBody(dialect, prepared?.body).errors).toEqual([]);
    }
  });
});

describe('the wild corpus through every built-in route', () => {
  // Routes whose rows override their schema dialect: the outcomes that differ from the dialect's.
  const OVERRIDES: Record<string, Record<string, 'exact' | string[]>> = {
    xai: {
      set_range: ['relaxed', 'constraints-to-description'],
      pick_target: ['relaxed', 'constraints-to-description'],
      sort_rows: ['omitted', 'enum-null-not-accepted'],
    },
  };

  it('every route gets the outcome its schema dialect predicts, and every body validates against its dialect schema', () => {
    // Each route as its default model resolves it: a model-aware route's default may take another dialect.
    for (const row of registry.rows.map((entry) => resolveModelFacts(entry, entry.model.default).row)) {
      const { prepared } = validatedPreview(on(row.route_id, corpusTools), 'hello', 'streaming');
      expect(prepared, row.route_id).not.toBeNull();
      const actual = summary(prepared?.projection.outcomes ?? []);
      for (const entry of corpus.cases) {
        const expected =
          OVERRIDES[row.route_id]?.[entry.name] ??
          entry.expect[row.tool_schema.dialect] ??
          PLUGIN_DIALECT_OUTCOMES[row.tool_schema.dialect]?.[entry.name];
        const label = expected === 'exact' ? 'exact' : `${expected?.[0]}:${expected?.slice(1).join('+')}`;
        expect(actual[entry.name], `${row.route_id} / ${entry.name}`).toBe(label);
      }
      expect(validateWireBody(row.dialect as WireDialect, prepared?.body).errors, row.route_id).toEqual([]);
    }
  });
});

describe('dispatch', () => {
  const ORIGIN = 'http://127.0.0.1:18082';

  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterAll(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  it('sendTurn hands the warning over before the request leaves, and sends only the projected tools', async () => {
    const sendHome = await tempHome({
      route: 'gateway',
      routes: {
        gateway: {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: `${ORIGIN}/v1`,
          model: 'm',
          api_key_env: 'CW_PROJECTION_TEST_KEY',
        },
      },
    });
    const snapshot: CwSnapshot = {
      ...(await snapshotOf(sendHome, registry)),
      catalog: [...BUILTIN_TOOLS, byName('browser.navigate')],
      mcp: { kind: 'snapshot', serverCount: 1 },
    };
    const events: string[] = [];
    let received: { tools: { function: { name: string } }[] } | undefined;
    nock(ORIGIN)
      .post('/v1/chat/completions')
      .reply(async (request: Request) => {
        events.push('request');
        received = (await request.json()) as typeof received;
        return [
          200,
          JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'ok' } }] }),
          { 'content-type': 'application/json' },
        ];
      });
    const sent = await readTurn(
      runTurn(snapshot, {
        home: sendHome,
        prompt: 'hello',
        entrypoint: 'blocking',
        env: { CW_PROJECTION_TEST_KEY: FAKE_KEY },
      }),
      (event) =>
        event.type === 'projection-warning'
          ? events.push(`warning:${event.warning.omitted.map((entry) => entry.name).join(',')}`)
          : undefined,
    );
    expect(events).toEqual(['warning:browser.navigate', 'request']);
    expect(sent.warning?.omitted).toEqual([{ name: 'browser.navigate', reason: 'name-not-accepted' }]);
    expect(received?.tools.map((tool) => tool.function.name)).toEqual(BUILTIN_TOOLS.map((tool) => tool.name));
    await removeHome(sendHome);
  });

  it('cw send prints the warning on stderr, redacted, before it tries to send', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cw-data-'));
    const sendHome = await tempHome({ route: 'limited-tools' });
    try {
      const env = { ...process.env, CW_DATA_DIR: dataDir, CW_HOME: sendHome };
      await execFileAsync(
        process.execPath,
        [CW_BIN, 'plugins', 'link', join(REPO_ROOT, 'test/fixtures/route-plugins/limited-tools'), '--no-install'],
        { env },
      );
      const failure = await execFileAsync(process.execPath, [CW_BIN, 'send', '--prompt', 'hello'], { env }).catch(
        (error: { stderr: string; code: number }) => error,
      );
      const lines = withoutNoSandboxNotice('stderr' in failure ? failure.stderr : '')
        .trim()
        .split('\n');
      // The route takes three tools: the other two are named, then the send fails on the closed port.
      expect(lines[0]).toBe(
        'cw: warning: 2 tools cannot be sent on route limited-tools and were left off: edit_file (tool-limit-exceeded), shell (tool-limit-exceeded)',
      );
      expect(lines.at(-1)).toContain('could not reach the endpoint');
      expect('code' in failure ? failure.code : 0).toBe(1);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await removeHome(sendHome);
    }
  });
});
