import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connectMcpServer, type McpConnection, McpServerError } from '../core/src/mcp/connect-mcp-server.js';
import type { McpServerConfig } from '../core/src/config/cw-config.js';
import { mcpServerFingerprint } from '../core/src/mcp/mcp-server-fingerprint.js';
import { mcpSnapshotState } from '../core/src/mcp/mcp-snapshot-state.js';
import { mcp } from '@cw/core';

const { readMcpServers, readMcpSnapshot, refreshMcpSnapshot } = mcp;
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempHome } from './support/cw-fixture.js';
import { type HttpFixture, MCP_FIXTURE_TOOLS, startHttpFixture, stdioFixtureEntry } from './support/mcp-fixture.js';

// Config entries go through the config loader, as cw reads them, so defaults are filled in the same way.
async function serversOf(
  mcpServers: Record<string, unknown>,
): Promise<{ home: string; servers: Record<string, McpServerConfig> }> {
  const home = await tempHome({ mcpServers });
  return { home, servers: await readMcpServers(home) };
}

async function entryOf(raw: Record<string, unknown>): Promise<McpServerConfig> {
  const { servers } = await serversOf({ it: raw });
  return servers['it']!;
}

async function failure(run: Promise<unknown>): Promise<McpServerError> {
  const error = await run.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpServerError);
  return error as McpServerError;
}

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function connected(
  name: string,
  raw: Record<string, unknown>,
  env?: Record<string, string>,
): Promise<McpConnection> {
  const connection = await connectMcpServer(name, await entryOf(raw), env === undefined ? {} : { env });
  open.push(connection);
  return connection;
}

let http: HttpFixture;
beforeAll(async () => {
  http = await startHttpFixture();
});
afterAll(async () => {
  await http.stop();
});

describe('connectMcpServer over stdio', () => {
  it('connects, names the server, lists its tools and calls them', async () => {
    const connection = await connected('fixture', stdioFixtureEntry(['--name', 'fixture-one']));
    expect(connection.serverInfo).toEqual({ name: 'fixture-one', version: '1.2.3' });
    const tools = await connection.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(MCP_FIXTURE_TOOLS);
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo).toMatchObject({
      description: 'Returns its text argument.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true },
    });
    expect(tools.find((tool) => tool.name === 'add')?.annotations).toBeUndefined();
    expect(await connection.callTool('echo', { text: 'héllo\nworld' })).toEqual({
      isError: false,
      content: 'héllo\nworld',
      images: [],
    });
    expect(await connection.callTool('add', { a: 2, b: 40 })).toEqual({ isError: false, content: '42', images: [] });
    expect(await connection.callTool('fail', {})).toEqual({
      isError: true,
      content: 'it failed on purpose',
      images: [],
    });
  });

  it('keeps an image part as an image, its place marked in the text', async () => {
    const connection = await connected('fixture', stdioFixtureEntry());
    const data = Buffer.from('not really a png').toString('base64');
    expect(await connection.callTool('mixed', {})).toEqual({
      isError: false,
      content: 'a picture follows\n[image 1: image/png, 16 bytes]',
      images: [{ media_type: 'image/png', data }],
    });
  });

  it('an error the server answers with (unknown tool, bad arguments) is an error result, not a throw', async () => {
    const connection = await connected('fixture', stdioFixtureEntry());
    const unknown = await connection.callTool('no_such_tool', {});
    expect(unknown.isError).toBe(true);
    const bad = await connection.callTool('add', { a: 'two' });
    expect(bad.isError).toBe(true);
    expect(await connection.callTool('echo', { text: 'still here' })).toEqual({
      isError: false,
      content: 'still here',
      images: [],
    });
  });

  it('follows nextCursor to the last page', async () => {
    const connection = await connected('fixture', stdioFixtureEntry(['--page-size', '3']));
    const tools = await connection.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(MCP_FIXTURE_TOOLS);
    // 8 tools, 3 a page: three pages.
    expect(JSON.parse((await connection.callTool('stats', {})).content)).toEqual({ tools_list_calls: 3 });
  });

  it('a call that outlives its timeout throws, and the connection still works', async () => {
    const connection = await connected('fixture', stdioFixtureEntry());
    const error = await failure(connection.callTool('slow', { ms: 5_000 }, undefined, 200));
    expect(error.code).toBe('timeout');
    expect(error.safeMessage).toBe('MCP server fixture: no answer within 200 ms');
    expect(await connection.callTool('slow', { ms: 10 }, undefined, 5_000)).toEqual({
      isError: false,
      content: 'slept 10 ms',
      images: [],
    });
  });

  it('an aborted call throws aborted', async () => {
    const connection = await connected('fixture', stdioFixtureEntry());
    const controller = new AbortController();
    const call = connection.callTool('slow', { ms: 5_000 }, controller.signal, 10_000);
    setTimeout(() => controller.abort(), 100);
    expect((await failure(call)).code).toBe('aborted');
  });

  it('the server sees the base variables and its own env, never the rest of cw environment', async () => {
    const env = {
      PATH: process.env['PATH'] ?? '',
      HOME: '/home/fixture-user',
      LANG: 'C.UTF-8',
      FIXTURE_TEST_API_KEY: 'sk-fixture-should-not-leak-0123456789',
      CW_HOME: '/somewhere',
      SOURCE_OF_TOKEN: 'value-from-reference',
    };
    const connection = await connected(
      'fixture',
      stdioFixtureEntry([], { env: { GIVEN: '${env:SOURCE_OF_TOKEN}', PLAIN: 'plain' } }),
      env,
    );
    const read = async (name: string) => (await connection.callTool('env', { name })).content;
    expect(await read('FIXTURE_TEST_API_KEY')).toBe('<unset>');
    expect(await read('CW_HOME')).toBe('<unset>');
    expect(await read('SOURCE_OF_TOKEN')).toBe('<unset>');
    expect(await read('GIVEN')).toBe('value-from-reference');
    expect(await read('PLAIN')).toBe('plain');
    expect(await read('LANG')).toBe('C.UTF-8');
  });

  it('with the default environment, an API key set in this process does not reach the server', async () => {
    process.env['FIXTURE_TEST_API_KEY'] = 'sk-fixture-should-not-leak-0123456789';
    try {
      const connection = await connected('fixture', stdioFixtureEntry());
      expect((await connection.callTool('env', { name: 'FIXTURE_TEST_API_KEY' })).content).toBe('<unset>');
      expect((await connection.callTool('env', { name: 'PATH' })).content).toBe(process.env['PATH']);
    } finally {
      delete process.env['FIXTURE_TEST_API_KEY'];
    }
  });

  it('a command that does not exist fails as spawn-failed', async () => {
    const error = await failure(connectMcpServer('missing', await entryOf({ command: 'cw-no-such-mcp-server-xyz' })));
    expect(error.code).toBe('spawn-failed');
    expect(error.safeMessage).toBe('MCP server missing: the command was not found');
  });

  it('a server that exits at start fails as connection-closed', async () => {
    const error = await failure(connectMcpServer('dies', await entryOf(stdioFixtureEntry(['--exit-at-start']))));
    expect(error.code).toBe('connection-closed');
  });

  it('a server that never answers fails within the connect timeout', async () => {
    const started = Date.now();
    const error = await failure(
      connectMcpServer('silent', await entryOf(stdioFixtureEntry(['--silent-at-start'])), { timeoutMs: 300 }),
    );
    expect(error.code).toBe('timeout');
    expect(error.detail).toMatch(/^no answer within 300 ms(; the server said: .*)?$/);
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('an unset ${env:…} variable fails before anything starts, naming only the variable', async () => {
    const error = await failure(
      connectMcpServer(
        'fixture',
        await entryOf(stdioFixtureEntry([], { env: { A: '${env:CW_TEST_UNSET_VARIABLE}' } })),
        {
          env: { OTHER: 'secret-value-here' },
        },
      ),
    );
    expect(error.code).toBe('env-reference');
    expect(error.safeMessage).toContain('CW_TEST_UNSET_VARIABLE');
    expect(error.safeMessage).not.toContain('secret-value-here');
  });
});

describe('connectMcpServer over streamable HTTP', () => {
  it('connects, lists tools and calls them', async () => {
    const connection = await connected('web', { url: http.url });
    expect(connection.serverInfo).toEqual({ name: 'cw-fixture', version: '1.2.3' });
    expect((await connection.listTools()).map((tool) => tool.name)).toEqual(MCP_FIXTURE_TOOLS);
    expect(await connection.callTool('echo', { text: 'over http' })).toEqual({
      isError: false,
      content: 'over http',
      images: [],
    });
    expect(await connection.callTool('fail', {})).toEqual({
      isError: true,
      content: 'it failed on purpose',
      images: [],
    });
  });

  it('headers reach the server with their ${env:…} references expanded', async () => {
    const connection = await connected(
      'web',
      { url: http.url, headers: { Authorization: 'Bearer ${env:FIXTURE_HTTP_TOKEN}', 'X-Plain': 'plain' } },
      { FIXTURE_HTTP_TOKEN: 'tok-0123456789' },
    );
    expect((await connection.callTool('header', { name: 'authorization' })).content).toBe('Bearer tok-0123456789');
    expect((await connection.callTool('header', { name: 'x-plain' })).content).toBe('plain');
  });

  it('a wrong path is an HTTP error that shows no path', async () => {
    const error = await failure(connectMcpServer('web', await entryOf({ url: `${http.url}-private-path` })));
    expect(error.code).toBe('http-error');
    expect(error.safeMessage).toBe('MCP server web: the server answered HTTP 404');
  });

  it('a port nobody listens on is an HTTP error without the URL path', async () => {
    const closed = await startHttpFixture();
    await closed.stop();
    const error = await failure(connectMcpServer('web', await entryOf({ url: `${closed.url}/tenant-secret-path` })));
    expect(error.code).toBe('http-error');
    expect(error.safeMessage).not.toContain('tenant-secret-path');
  });
});

describe('refreshMcpSnapshot', () => {
  it('writes a snapshot whose fingerprints match the config, and the state is a snapshot', async () => {
    const { home, servers } = await serversOf({
      local: stdioFixtureEntry(['--name', 'local-fixture']),
      remote: { url: http.url },
      off: { command: 'cw-no-such-mcp-server-xyz', disabled: true },
    });
    const results = await refreshMcpSnapshot({ home, servers, now: () => new Date('2026-02-03T04:05:06.000Z') });
    expect(results).toEqual([
      { name: 'local', ok: true, toolCount: MCP_FIXTURE_TOOLS.length },
      { name: 'remote', ok: true, toolCount: MCP_FIXTURE_TOOLS.length },
    ]);
    const snapshot = await readMcpSnapshot(home);
    expect(Object.keys(snapshot.servers).sort()).toEqual(['local', 'remote']);
    expect(snapshot.servers['local']).toMatchObject({
      fingerprint: mcpServerFingerprint(servers['local']!),
      server: { name: 'local-fixture', version: '1.2.3' },
      refreshed_at: '2026-02-03T04:05:06.000Z',
    });
    expect(snapshot.servers['remote']?.fingerprint).toBe(mcpServerFingerprint(servers['remote']!));
    expect(snapshot.servers['local']?.tools.map((tool) => tool.name)).toEqual(MCP_FIXTURE_TOOLS);
    const state = mcpSnapshotState(servers, snapshot);
    expect(state.kind).toBe('snapshot');
    expect(state.kind === 'snapshot' && state.servers.map((server) => server.name)).toEqual(['local', 'remote']);
  });

  it('a changed config entry makes the state stale until the next refresh', async () => {
    const { home, servers } = await serversOf({ local: stdioFixtureEntry() });
    await refreshMcpSnapshot({ home, servers });
    const changed = await serversOf({ local: stdioFixtureEntry(['--name', 'renamed']) });
    const snapshot = await readMcpSnapshot(home);
    expect(mcpSnapshotState(changed.servers, snapshot)).toEqual({
      kind: 'not-snapshottable',
      staleCount: 1,
      enabledCount: 1,
    });
    await refreshMcpSnapshot({ home, servers: changed.servers });
    expect(mcpSnapshotState(changed.servers, await readMcpSnapshot(home)).kind).toBe('snapshot');
  });

  it('a server that fails is reported, keeps no entry, and the others are still written', async () => {
    const { home, servers } = await serversOf({
      good: stdioFixtureEntry(),
      missing: { command: 'cw-no-such-mcp-server-xyz' },
      dies: stdioFixtureEntry(['--exit-at-start']),
    });
    // An entry left by an earlier refresh of `dies`, under an older config.
    await refreshMcpSnapshot({
      home,
      servers: (await serversOf({ dies: stdioFixtureEntry() })).servers,
      only: ['dies'],
    });
    expect(Object.keys((await readMcpSnapshot(home)).servers)).toEqual(['dies']);

    const results = await refreshMcpSnapshot({ home, servers, timeoutMs: 5_000 });
    expect(results).toEqual([
      { name: 'good', ok: true, toolCount: MCP_FIXTURE_TOOLS.length },
      { name: 'missing', ok: false, code: 'spawn-failed', detail: 'the command was not found' },
      { name: 'dies', ok: false, code: 'connection-closed', detail: expect.any(String) },
    ]);
    const snapshot = await readMcpSnapshot(home);
    expect(Object.keys(snapshot.servers)).toEqual(['good']);
    expect(mcpSnapshotState(servers, snapshot)).toEqual({ kind: 'not-snapshottable', staleCount: 2, enabledCount: 3 });
  });

  it('a partial refresh leaves the other entries alone; a full one drops servers gone from config', async () => {
    const { home, servers } = await serversOf({ a: stdioFixtureEntry(), b: stdioFixtureEntry(['--name', 'b']) });
    await refreshMcpSnapshot({ home, servers });
    const onlyA = (await serversOf({ a: stdioFixtureEntry() })).servers;
    await refreshMcpSnapshot({ home, servers: onlyA, only: ['a'] });
    expect(Object.keys((await readMcpSnapshot(home)).servers).sort()).toEqual(['a', 'b']);
    await refreshMcpSnapshot({ home, servers: onlyA });
    expect(Object.keys((await readMcpSnapshot(home)).servers)).toEqual(['a']);
  });

  it('connects in parallel: two slow-to-fail servers take one timeout, not two', async () => {
    const { home, servers } = await serversOf({
      one: stdioFixtureEntry(['--silent-at-start']),
      two: stdioFixtureEntry(['--silent-at-start']),
    });
    const started = Date.now();
    const results = await refreshMcpSnapshot({ home, servers, timeoutMs: 1_000 });
    expect(results.map((result) => (result.ok ? 'ok' : result.code))).toEqual(['timeout', 'timeout']);
    // Each: 1 s of timeout, then the process is stopped (stdin closed; it exits). Serially it would be 2 s+.
    expect(Date.now() - started).toBeLessThan(1_900);
  });

  it('${env:…} headers reach the HTTP server but are stored expanded nowhere', async () => {
    const secret = 'fixture-secret-token-0123456789';
    const { home, servers } = await serversOf({
      remote: { url: http.url, headers: { Authorization: 'Bearer ${env:FIXTURE_HTTP_TOKEN}' } },
    });
    const env = { FIXTURE_HTTP_TOKEN: secret };
    const connection = await connectMcpServer('remote', servers['remote']!, { env });
    open.push(connection);
    expect((await connection.callTool('header', { name: 'authorization' })).content).toBe(`Bearer ${secret}`);

    const results = await refreshMcpSnapshot({ home, servers, env });
    expect(results).toEqual([{ name: 'remote', ok: true, toolCount: MCP_FIXTURE_TOOLS.length }]);
    for (const file of await filesUnder(home)) {
      expect(await readFile(file, 'utf8'), file).not.toContain(secret);
    }
    expect(await readFile(join(home, 'config.json'), 'utf8')).toContain('${env:FIXTURE_HTTP_TOKEN}');
  });

  it('an unset header variable fails that server with env-reference and writes no entry', async () => {
    const { home, servers } = await serversOf({
      remote: { url: http.url, headers: { Authorization: 'Bearer ${env:CW_TEST_UNSET_VARIABLE}' } },
    });
    const results = await refreshMcpSnapshot({ home, servers, env: {} });
    expect(results).toEqual([
      { name: 'remote', ok: false, code: 'env-reference', detail: expect.stringContaining('CW_TEST_UNSET_VARIABLE') },
    ]);
    expect((await readMcpSnapshot(home)).servers).toEqual({});
  });
});

describe('the SDK stays off the preview path', () => {
  it('only connect-mcp-server.ts loads the SDK, and only with a dynamic import', async () => {
    const sources = (await filesUnder(join(REPO_ROOT, 'core', 'src'))).filter((file) => file.endsWith('.ts'));
    for (const file of sources) {
      const text = await readFile(file, 'utf8');
      const staticImports = text.match(/^import\s+(?!type\b)[^;]*from\s+'@modelcontextprotocol\/[^']*'/gm) ?? [];
      expect(staticImports, file).toEqual([]);
      if (!file.endsWith(join('mcp', 'connect-mcp-server.ts')) && !file.endsWith('.test.ts')) {
        expect(text.includes("import('@modelcontextprotocol"), file).toBe(false);
      }
    }
  });
});

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}
