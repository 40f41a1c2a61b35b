// MCP through the whole turn: refresh stores a snapshot, preview uses it without starting anything,
// a changed config makes the tools unknowable again, and cw send starts the server, offers its tools
// under namespaced names, and runs a call the model makes.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, sessionFile } from './support/cw-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';
import { startHttpFixture } from './support/mcp-fixture.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_MCP_SEND_KEY';
const KEY = `sk-test-${'5'.repeat(32)}`;
const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'mcp', 'fixture-server.mjs');
const models = useScriptedModels(KEY_ENV, KEY);

/** A stdio server entry that also leaves a mark each time it is started, so a test can tell. */
async function countingServer(
  folder: string,
  label = 'server',
): Promise<{ entry: Record<string, unknown>; starts: () => Promise<number> }> {
  const marks = join(folder, `${label}-starts.log`);
  const launcher = join(folder, `${label}-launch.mjs`);
  await writeFile(
    launcher,
    `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(marks)}, 'x');\nawait import(${JSON.stringify(FIXTURE)});\n`,
  );
  return {
    entry: { command: process.execPath, args: [launcher] },
    starts: async () => (await readFile(marks, 'utf8').catch(() => '')).length,
  };
}

describe('MCP tools in preview and send', () => {
  it('refresh, exact preview that starts nothing, stale after a config change, and a send that runs an MCP tool', async () => {
    const folder = await models.folder('cw-mcp-');
    const server = await countingServer(folder);
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [{ id: 'call_echo', name: 'mcp__fixture__echo', arguments: '{"text":"through mcp"}' }] } },
      { carries: [{ id: 'call_echo', includes: 'through mcp' }], reply: { text: 'the server echoed it' } },
    );
    const home = await models.home(model, { approval: 'read-only', mcpServers: { fixture: server.entry } });
    const env = models.envFor(home);

    const before = await runCwChild(['preview-request', 'json', '--prompt', 'hi'], env);
    expect(JSON.parse(before.stdout).tools.unavailable.reason).toBe('mcp-state-not-snapshottable');

    const refresh = await runCwChild(['mcp', 'refresh'], env);
    expect(refresh.code, refresh.stderr).toBe(0);
    const startsAfterRefresh = await server.starts();
    expect(startsAfterRefresh).toBe(1);

    const preview = await runCwChild(['preview-request', 'json', '--prompt', 'hi'], env);
    expect(preview.code, preview.stderr).toBe(0);
    const manifest = JSON.parse(preview.stdout);
    expect(manifest.tools.exact.mcp_server_count).toBe(1);
    expect(manifest.tools.exact.mcp_tool_count).toBeGreaterThanOrEqual(4);
    expect(manifest.body.exact.body_sha256).toMatch(/^[0-9a-f]{64}$/);
    // Preview read the snapshot; it started nothing.
    expect(await server.starts()).toBe(startsAfterRefresh);

    const send = await runCwChild(['send', '--prompt', 'use the echo tool'], env);
    expect(send.code, send.stderr).toBe(0);
    expect(send.stdout).toContain('the server echoed it');
    expect(model.problems).toEqual([]);
    const first = JSON.parse(model.requests[0]?.view.raw ?? '{}') as { tools: { function: { name: string } }[] };
    const names = first.tools.map((tool) => tool.function.name);
    expect(names).toContain('read_file');
    expect(names).toContain('mcp__fixture__echo');
    // The tool the server marks read-only ran under read-only; the session holds its result.
    const session = JSON.parse(await readFile(await sessionFile(home), 'utf8'));
    expect(session.messages.find((message: { role: string }) => message.role === 'tool')).toMatchObject({
      name: 'mcp__fixture__echo',
      status: 'ok',
      content: 'through mcp',
    });
    // The first request is what the preview of the same prompt would have described.
    expect(model.requests[0]?.view.raw).not.toContain('FIXTURE_STDERR_MARKER');
    // The send started the server once, for the call, and not before.
    expect(await server.starts()).toBe(startsAfterRefresh + 1);

    // A changed entry: the snapshot no longer matches, and preview says so without naming the server.
    const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8'));
    config.mcpServers.fixture.args.push('--name', 'renamed');
    await writeFile(join(home, 'config.json'), JSON.stringify(config));
    const stale = await runCwChild(['preview-request', 'json', '--prompt', 'hi'], env);
    const staleManifest = JSON.parse(stale.stdout);
    expect(staleManifest.tools.unavailable.reason).toBe('mcp-state-not-snapshottable');
    expect(staleManifest.tools.unavailable.detail).toContain('1 of 1 enabled MCP servers');
    expect(stale.stdout).not.toContain('fixture');
    expect('exact' in staleManifest.route).toBe(true);
  });

  it('a send starts only the servers whose tools the model calls, and none with --no-tool-runs', async () => {
    const folder = await models.folder('cw-mcp-lazy-');
    const alpha = await countingServer(folder, 'alpha');
    const beta = await countingServer(folder, 'beta');
    const call = { calls: [{ id: 'call_a', name: 'mcp__alpha__echo', arguments: '{"text":"only alpha"}' }] };
    const model = await models.model(
      'chat-completions',
      { reply: { text: 'no tools needed' } },
      { reply: call },
      { reply: call },
      { carries: [{ id: 'call_a', includes: 'only alpha' }], reply: { text: 'alpha answered' } },
    );
    const home = await models.home(model, {
      approval: 'read-only',
      mcpServers: { alpha: alpha.entry, beta: beta.entry },
    });
    const env = models.envFor(home);
    expect((await runCwChild(['mcp', 'refresh'], env)).code).toBe(0);
    const counts = async () => [await alpha.starts(), await beta.starts()];
    expect(await counts()).toEqual([1, 1]);

    // A reply without calls: both servers' tools were offered from the snapshot, neither started.
    const plain = await runCwChild(['send', '--prompt', 'hello'], env);
    expect(plain.code, plain.stderr).toBe(0);
    const offered = (JSON.parse(model.requests[0]?.view.raw ?? '{}') as { tools: { function: { name: string } }[] })
      .tools;
    expect(offered.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(['mcp__alpha__echo', 'mcp__beta__echo']),
    );
    expect(await counts()).toEqual([1, 1]);

    // --no-tool-runs hands the call back unrun: still nothing started.
    const unrun = await runCwChild(['send', '--no-tool-runs', '--prompt', 'call alpha'], env);
    expect(unrun.code, unrun.stderr).toBe(0);
    expect(await counts()).toEqual([1, 1]);

    // A call of alpha's tool starts alpha, once; beta stays down.
    const ran = await runCwChild(['send', '--prompt', 'call alpha'], env);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('alpha answered');
    expect(model.problems).toEqual([]);
    expect(await counts()).toEqual([2, 1]);
  });

  it("a running server's tools/list_changed updates the stored snapshot, so the next preview offers the new tool", async () => {
    const folder = await models.folder('cw-mcp-changed-');
    const server = await countingServer(folder);
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [{ id: 'call_g', name: 'mcp__fixture__grow', arguments: '{}' }] } },
      { carries: [{ id: 'call_g', includes: 'added grown' }], reply: { text: 'grew' } },
    );
    const home = await models.home(model, { approval: 'workspace', mcpServers: { fixture: server.entry } });
    const env = models.envFor(home);
    expect((await runCwChild(['mcp', 'refresh'], env)).code).toBe(0);
    const count = async () =>
      JSON.parse((await runCwChild(['preview-request', 'json', '--prompt', 'hi'], env)).stdout).tools.exact
        .mcp_tool_count as number;
    const before = await count();
    const send = await runCwChild(['send', '--prompt', 'grow a tool'], env);
    expect(send.code, send.stderr).toBe(0);
    expect(model.problems).toEqual([]);
    const stored = JSON.parse(await readFile(join(home, 'mcp', 'snapshot.json'), 'utf8'));
    expect(stored.servers.fixture.tools.map((tool: { name: string }) => tool.name)).toContain('grown');
    expect(await count()).toBe(before + 1);
  });

  it('a server that fails to start is a warning; the turn still goes without its tools', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'answered without it' } });
    const home = await models.home(model, {
      mcpServers: { broken: { command: process.execPath, args: [FIXTURE, '--exit-at-start'] } },
    });
    const send = await runCwChild(['send', '--prompt', 'hello'], models.envFor(home));
    expect(send.code, send.stderr).toBe(0);
    expect(send.stderr).toMatch(
      /warning: MCP server broken: [^\n]+; the server said: [^\n]*failing at start on purpose; its tools are left out of this turn\n/,
    );
    expect(send.stderr).not.toContain('sk-fixture');
    const first = JSON.parse(model.requests[0]?.view.raw ?? '{}') as { tools: { function: { name: string } }[] };
    expect(first.tools.map((tool) => tool.function.name).some((name) => name.startsWith('mcp__'))).toBe(false);
  });

  it('over streamable HTTP: a header from ${env:…} reaches the server, and the call runs through the loop', async () => {
    const http = await startHttpFixture();
    try {
      const model = await models.model(
        'anthropic-messages',
        { reply: { calls: [{ id: 'toolu_h', name: 'mcp__web__header', arguments: '{"name":"x-team"}' }] } },
        { carries: [{ id: 'toolu_h', includes: 'blue' }], reply: { text: 'the header arrived' } },
      );
      const home = await models.home(model, {
        approval: 'workspace',
        mcpServers: { web: { url: http.url, headers: { 'x-team': '${env:CW_TEAM_HEADER}' } } },
      });
      const send = await runCwChild(
        ['send', '--prompt', 'read the header'],
        models.envFor(home, { CW_TEAM_HEADER: 'blue' }),
      );
      expect(send.code, send.stderr).toBe(0);
      expect(send.stdout).toContain('the header arrived');
      expect(model.problems).toEqual([]);
      // The reference stays a reference on disk: neither the config nor the snapshot holds the value.
      expect(await readFile(join(home, 'config.json'), 'utf8')).not.toContain('blue');
      expect(await readFile(join(home, 'mcp', 'snapshot.json'), 'utf8')).not.toContain('blue');
      const preview = JSON.parse(
        (await runCwChild(['preview-request', 'json', '--prompt', 'hi'], models.envFor(home))).stdout,
      );
      expect(preview.tools.exact.mcp_server_count).toBe(1);
    } finally {
      await http.stop();
    }
  });
});
