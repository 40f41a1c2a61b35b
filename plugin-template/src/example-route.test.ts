// A turn through this plugin's route, the way cw runs it: the plugin and the dialect it names are
// loaded from their packages, preview-request builds the body, the body is checked against the
// dialect's request schema, and `send` to a local endpoint puts exactly the previewed bytes on the wire.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  BUNDLED_BASE_PROMPT,
  loadPlugins,
  loadSnapshot,
  previewRequest,
  sendTurn,
  tapCoreStages,
  type PluginRegistry,
} from '@cw/core';
import type { PluginApi, PluginDescriptor } from '@cw/core/plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_ROW } from './example-capability-rows.js';
import { register } from './index.js';

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUTE = EXAMPLE_ROW.route_id;
const KEY_ENV = EXAMPLE_ROW.auth.api_key_env as string;
/** Obviously fake: the local endpoint only checks that it arrives. */
const FAKE_KEY = `sk-test-${'0'.repeat(32)}`;

/** A package as cw's loader sees it: its folder and the `cw` field of its package.json. */
function descriptorOf(root: string, type: PluginDescriptor['type']): PluginDescriptor {
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    cw?: unknown;
  };
  return { name: pjson.name, version: pjson.version, root, cw: pjson.cw, type };
}

/** This package, whatever it has been renamed to. */
const SELF = descriptorOf(PACKAGE_ROOT, 'user');

/** The dialect this route names, loaded from its installed package like cw loads its built-ins. */
function dialectDescriptor(): PluginDescriptor {
  const pjson = createRequire(import.meta.url).resolve('@cw/dialect-chat-completions/package.json');
  return descriptorOf(dirname(pjson), 'core');
}

/** The same registrations, with every row sent to `baseUrl` instead of the provider. */
function aimedAt(api: PluginApi, baseUrl: string): PluginApi {
  return {
    apiVersion: api.apiVersion,
    plugin: api.plugin,
    hooks: api.hooks,
    addRoute: (row) => api.addRoute({ ...row, endpoint: { ...row.endpoint, base_url: baseUrl } }),
    addDialect: (dialect) => api.addDialect(dialect),
    refineBody: (match, refine, options) => api.refineBody(match, refine, options),
    addTool: (tool) => api.addTool(tool),
    addNoticeKind: (kind) => api.addNoticeKind(kind),
    addGateReason: (reason) => api.addGateReason(reason),
  };
}

/** A read-only tool, so the turn offers one and the body shows how the route carries tools. */
function addReadFileTool(api: PluginApi): void {
  api.addTool({
    name: 'read_file',
    description: 'Read a file of the workspace.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    },
    readOnly: true,
    execute: async () => ({ status: 'ok', content: '' }),
  });
}

const validateChatBody = (() => {
  const schema = JSON.parse(
    readFileSync(join(PACKAGE_ROOT, 'fixtures', 'openai-chat-completions-request.schema.json'), 'utf8'),
  ) as object;
  // strict: false ignores the OpenAPI-only keywords kept as published; formats are not checked.
  return new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
})();

const folders: string[] = [];
async function homeWith(config: unknown): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'cw-example-'));
  folders.push(home);
  await writeFile(join(home, 'config.json'), JSON.stringify(config));
  return home;
}

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('a turn through the example route', () => {
  let registry: PluginRegistry;
  beforeAll(async () => {
    // This package loads from its package.json and built entry, exactly as `cw plugins install` finds it.
    registry = await loadPlugins([dialectDescriptor(), SELF]);
    addReadFileTool(registry.apiFor('test-tools'));
    tapCoreStages(registry);
  });

  it('loads from its package with no problem', () => {
    expect(registry.problems).toEqual([]);
    expect(registry.plugins.map((plugin) => plugin.name)).toContain(SELF.name);
  });

  it('previews the body the provider documents, exactly', async () => {
    const home = await homeWith({ route: ROUTE });
    const snapshot = await loadSnapshot({ home, registry, defaultRouteId: ROUTE });
    const { manifest, prepared } = previewRequest(snapshot, 'hello', 'streaming');
    if (!prepared || !('exact' in manifest.body)) throw new Error(`preview is not exact: ${JSON.stringify(manifest)}`);
    expect(prepared.body).toEqual({
      model: 'example-model',
      messages: [
        { role: 'system', content: BUNDLED_BASE_PROMPT },
        { role: 'user', content: 'hello' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'read_file',
            description: 'Read a file of the workspace.',
            parameters: {
              type: 'object',
              properties: { path: { type: 'string' } },
              required: ['path'],
              additionalProperties: false,
            },
          },
        },
      ],
      tool_choice: 'auto',
      max_tokens: 8_192,
      stream: true,
      stream_options: { include_usage: true },
      parallel_tool_calls: false,
    });
    expect(manifest.body.exact.wire_output_cap_field).toBe('max_tokens');
  });

  it('builds bodies the dialect’s request schema accepts, streaming and blocking', async () => {
    const home = await homeWith({ route: ROUTE });
    const snapshot = await loadSnapshot({ home, registry, defaultRouteId: ROUTE });
    for (const entrypoint of ['streaming', 'blocking'] as const) {
      const { prepared } = previewRequest(snapshot, 'hello', entrypoint);
      const valid = validateChatBody(prepared?.body);
      expect(validateChatBody.errors ?? [], entrypoint).toEqual([]);
      expect(valid).toBe(true);
    }
  });
});

describe('parity: what send puts on the wire is what preview showed', () => {
  let server: Server;
  let baseUrl: string;
  const received: { bytes: Buffer; headers: IncomingHttpHeaders; path: string }[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ bytes: Buffer.concat(chunks), headers: request.headers, path: request.url ?? '' });
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(
          'data: {"choices":[{"delta":{"content":"parity ok"}}]}\n\n' +
            'data: {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3}}\n\n' +
            'data: [DONE]\n\n',
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the previewed bytes, with the key, to the route’s path', async () => {
    const registry = await loadPlugins([dialectDescriptor()]);
    register(aimedAt(registry.apiFor(SELF.name), baseUrl));
    addReadFileTool(registry.apiFor('test-tools'));
    tapCoreStages(registry);
    expect(registry.problems).toEqual([]);
    const home = await homeWith({ route: ROUTE });
    const snapshot = await loadSnapshot({ home, registry, defaultRouteId: ROUTE });

    const { manifest } = previewRequest(snapshot, 'hello', 'streaming');
    if (!('exact' in manifest.body)) throw new Error('preview is not exact');
    const sent = await sendTurn(snapshot, {
      home,
      prompt: 'hello',
      entrypoint: 'streaming',
      env: { [KEY_ENV]: FAKE_KEY },
    });

    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.path).toBe(`/v1${EXAMPLE_ROW.endpoint.path}`);
    expect(request?.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
    const wireHash = createHash('sha256')
      .update(request?.bytes ?? Buffer.alloc(0))
      .digest('hex');
    expect(wireHash).toBe(manifest.body.exact.body_wire_sha256);
    expect(sent.reply.text).toBe('parity ok');
    expect(sent.reply.usage).toEqual({ input_tokens: 12, output_tokens: 3 });
    // The turn was saved only after the reply finished.
    const session = JSON.parse(await readFile(join(home, 'sessions', 'default.json'), 'utf8')) as {
      messages: unknown[];
    };
    expect(session.messages).toHaveLength(2);
  });
});
