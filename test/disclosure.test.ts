import nock from 'nock';
import { readdir } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { previewRequest, safeErrorText, type CwSnapshot, type PluginRegistry } from '@cw/core';
import { renderManifestTable } from '../cli/src/render/render-manifest-table.js';
import { BUILTIN_TOOLS } from './support/workspace-tools.js';
import { ConfigError } from '../core/src/config/cw-config.js';
import { BLNS, HOSTILE, leakedSecret } from './support/label-corpus.js';
import { FAKE_KEY, builtinRegistry, removeHome, snapshotOf, tempHome, useCwHomes } from './support/cw-fixture.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { runCw } from './support/run-cw.js';
import { withoutNoSandboxNotice } from './support/require-bubblewrap.js';

// Every printed form of one preview: the JSON manifest and the human table.
function printed(snapshot: CwSnapshot, prompt: string): string {
  const { manifest } = previewRequest(snapshot, prompt, 'streaming');
  expectValidManifest(manifest);
  return `${JSON.stringify(manifest, null, 2)}\n${renderManifestTable(manifest, { color: false })}`;
}

// A config that puts one hostile string in every user-authored slot a custom route has.
function hostileConfig(text: string): unknown {
  return {
    route: text,
    routes: {
      [text]: {
        provider: 'custom',
        dialect: 'chat-completions',
        base_url: `http://127.0.0.1:9/${text.isWellFormed() ? encodeURIComponent(text) : 'not-well-formed'}/v1`,
        model: text,
      },
    },
  };
}

/** What a user would see for a config: the preview, or the one-line config error. */
async function outputFor(config: unknown, registry: PluginRegistry, extraTool?: string): Promise<string> {
  const home = await tempHome(config);
  try {
    const snapshot = await snapshotOf(home, registry);
    const withTool: CwSnapshot = extraTool
      ? {
          ...snapshot,
          catalog: [
            ...BUILTIN_TOOLS,
            { ...BUILTIN_TOOLS[0]!, name: extraTool, origin: { kind: 'mcp', server: extraTool } },
          ],
        }
      : snapshot;
    return printed(withTool, 'the prompt');
  } catch (error) {
    if (error instanceof ConfigError) return safeErrorText(error.message);
    throw error;
  } finally {
    await removeHome(home);
  }
}

describe('hostile identifiers never reach any output', () => {
  let registry: PluginRegistry;
  beforeAll(async () => {
    registry = await builtinRegistry();
  });

  // Items too short to tell apart from ordinary output (a lone quote, "a") are still redacted, but a
  // substring check on them would prove nothing.
  const items = HOSTILE.filter((item) => item.text.trim().length >= 6);

  it.each(items.map((item) => [item.category, item.text] as const))(
    '[%s] %j as route id, model id, base URL path and tool name',
    async (_category, text) => {
      const outputs = [
        await outputFor(hostileConfig(text), registry, text),
        await outputFor({ mcpServers: { [text]: { command: 'server' } } }, registry),
      ];
      for (const output of outputs) {
        expect(output.includes(text.trim())).toBe(false);
        expect(leakedSecret(text, output)).toBeUndefined();
        expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      }
    },
  );
});

describe('a config full of secret-shaped values', () => {
  const home = useCwHomes();
  const routeId = `sk-test-${'1'.repeat(24)}`;
  const model = `deployments/${'ab12'.repeat(8)}`;
  const tenant = `sk-test-${'2'.repeat(24)}`;
  const baseUrl = `https://${tenant}.tenant.example:8443/v1/deployments/prod-key-8f2a`;
  // Refused at load (user info, query), and the refusal must not print any of it either.
  const refusedBaseUrl = `https://user:hunter2@${tenant}.tenant.example:8443/v1/deployments/prod-key-8f2a?api_key=${'3'.repeat(24)}`;
  const secrets = [
    routeId,
    model,
    tenant,
    'hunter2',
    'prod-key-8f2a',
    '3'.repeat(24),
    'tenant.example',
    '/v1/deployments',
  ];

  it('yields a manifest, a table and errors that contain none of them', async () => {
    await home({
      route: routeId,
      routes: {
        [routeId]: {
          provider: 'custom',
          dialect: 'openai-responses',
          base_url: baseUrl,
          model,
          api_key_env: 'CW_SECRET_SHAPED_KEY',
        },
      },
    });
    delete process.env['CW_SECRET_SHAPED_KEY'];
    const outputs = [
      await runCw(['preview-request', 'json', '--prompt', 'hi']),
      await runCw(['preview-request', '--prompt', 'hi']),
      await runCw(['send', '--prompt', 'hi']),
    ];
    expect(outputs.map((output) => output.exitCode)).toEqual([0, 0, 1]);
    const manifest = JSON.parse(outputs[0]!.stdout) as {
      route: { exact: { route_id: string; wire_model: string; endpoint_host_class: string } };
    };
    expect(manifest.route.exact.route_id).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(manifest.route.exact.wire_model).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(manifest.route.exact.endpoint_host_class).toMatch(/^https remote sha256:[0-9a-f]{12}$/);
    for (const output of outputs) {
      for (const secret of secrets) expect(`${output.stdout}${output.stderr}`).not.toContain(secret);
    }
  });

  it('a base_url with user info and a query is refused, and the refusal prints none of them', async () => {
    await home({
      route: routeId,
      routes: {
        [routeId]: { provider: 'custom', dialect: 'openai-responses', base_url: refusedBaseUrl, model },
      },
    });
    const outputs = [
      await runCw(['preview-request', 'json', '--prompt', 'hi']),
      await runCw(['preview-request', '--prompt', 'hi']),
      await runCw(['send', '--prompt', 'hi']),
    ];
    expect(outputs.map((output) => output.exitCode)).toEqual([1, 1, 1]);
    for (const output of outputs) {
      expect(output.stderr).toMatch(/\.base_url: must not carry/);
      for (const secret of secrets) expect(`${output.stdout}${output.stderr}`).not.toContain(secret);
    }
  });
});

describe('naughty strings never break the output', () => {
  let registry: PluginRegistry;
  beforeAll(async () => {
    registry = await builtinRegistry();
  });

  it('keeps the JSON valid and the table one line per field for every string of the list', async () => {
    for (const text of BLNS.filter((item) => item.length > 0 && item.length <= 64)) {
      const home = await tempHome({
        route: 'local',
        routes: {
          local: { provider: 'custom', dialect: 'anthropic-messages', base_url: 'http://127.0.0.1:9', model: text },
        },
      });
      try {
        const snapshot = await snapshotOf(home, registry);
        const { manifest } = previewRequest(snapshot, text, 'blocking');
        expectValidManifest(manifest);
        const json = JSON.stringify(manifest, null, 2);
        expect(() => JSON.parse(json) as unknown).not.toThrow();
        const table = renderManifestTable(manifest, { color: false });
        for (const line of table.split('\n')) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
        const wire = 'exact' in manifest.route ? manifest.route.exact.wire_model : '';
        // Published only when it is a short ordinary word; otherwise a fingerprint.
        expect(wire === text.trim() || /^sha256:[0-9a-f]{12}$/.test(wire), `${JSON.stringify(text)} -> ${wire}`).toBe(
          true,
        );
        if (wire === text.trim()) expect(text.trim()).toMatch(/^[A-Za-z0-9._+@:-]+$/);
      } finally {
        await removeHome(home);
      }
    }
  });
});

describe('the manifest can hold no free text', () => {
  it('carries no message array, content, schema or prompt text on any route', async () => {
    const registry = await builtinRegistry();
    const prompt = 'PROMPT-MARKER please read /home/someone/.ssh/id_rsa';
    for (const row of registry.rows) {
      const home = await tempHome({ route: row.route_id });
      try {
        const snapshot = await snapshotOf(home, registry);
        const output = printed(snapshot, prompt);
        expect(output).not.toContain('PROMPT-MARKER');
        expect(output).not.toContain('/home/someone');
        const { manifest } = previewRequest(snapshot, prompt, 'streaming');
        const offending: string[] = [];
        const walk = (value: unknown, path: string): void => {
          if (Array.isArray(value))
            value.forEach((item, index) => {
              walk(item, `${path}[${index}]`);
            });
          else if (typeof value === 'object' && value !== null) {
            for (const [key, child] of Object.entries(value)) {
              const requestArray =
                ['messages', 'input', 'tools', 'content', 'system'].includes(key) && Array.isArray(child);
              const schemaOrText = ['content', 'input_schema', 'parameters', 'instructions'].includes(key);
              if (requestArray || schemaOrText) {
                offending.push(`${path}.${key}`);
              }
              walk(child, `${path}.${key}`);
            }
          } else if (typeof value === 'string') {
            // Every string is a short label, enum, hash, or a redacted sentence: never request text.
            expect(value.length, path).toBeLessThanOrEqual(203);
          }
        };
        walk(manifest, '$');
        expect(offending).toEqual([]);
      } finally {
        await removeHome(home);
      }
    }
  });
});

describe('cw send keeps upstream text off the terminal', () => {
  const ORIGIN = 'http://127.0.0.1:18081';
  const homes: string[] = [];
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    nock.cleanAll();
    delete process.env['CW_HOME'];
    delete process.env['CW_DISCLOSURE_KEY'];
  });
  afterAll(async () => {
    nock.enableNetConnect();
    await Promise.all(homes.map(removeHome));
  });

  it('a 401 whose body echoes the key and the prompt prints a clear error with neither, and saves nothing', async () => {
    const home = await tempHome({
      route: 'echo',
      routes: {
        echo: {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: `${ORIGIN}/v1`,
          model: 'm',
          api_key_env: 'CW_DISCLOSURE_KEY',
        },
      },
    });
    homes.push(home);
    process.env['CW_HOME'] = home;
    process.env['CW_DISCLOSURE_KEY'] = FAKE_KEY;
    const prompt = 'PROMPT-MARKER secret plans';
    nock(ORIGIN)
      .post('/v1/chat/completions')
      .reply(401, { error: { message: `Incorrect API key provided: ${FAKE_KEY}. You asked: ${prompt}` } });
    const result = await runCw(['send', '--prompt', prompt]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('HTTP 401');
    expect(result.stderr).toContain('API key was refused');
    const everything = `${result.stdout}${result.stderr}`;
    expect(everything).not.toContain(FAKE_KEY);
    expect(everything).not.toContain('sk-test');
    expect(everything).not.toContain('PROMPT-MARKER');
    expect(await readdir(home)).toEqual(['config.json']);
  });

  it('a hostile route id in config never reaches the error line', async () => {
    const hostile = `prod-key-${'9f8e7d6c5b4a'}/../../etc "quoted"`;
    const home = await tempHome({ route: hostile });
    homes.push(home);
    process.env['CW_HOME'] = home;
    const result = await runCw(['send', '--prompt', 'hi']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).not.toContain('9f8e7d6c5b4a');
    expect(result.stderr).not.toContain('quoted');
    expect(withoutNoSandboxNotice(result.stderr).trim().split('\n')).toHaveLength(1);
  });
});
