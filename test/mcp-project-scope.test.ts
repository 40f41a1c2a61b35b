// A workspace's .mcp.json (the mcpServers shape other agents read) is used only once trusted, for
// those exact bytes; cw mcp add --scope project writes it; cw mcp get, enable and disable.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stdioFixtureEntry } from './support/mcp-fixture.js';
import { everythingEntry } from './support/published-mcp-server.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_MCP_PROJECT_KEY';
const KEY = `sk-test-${'4'.repeat(32)}`;
const models = useScriptedModels(KEY_ENV, KEY);

interface Listed {
  servers: { name: string; scope: string; snapshot: string; enabled: boolean }[];
  untrusted_project_servers: number;
}

describe('project-scoped MCP servers', () => {
  it('.mcp.json is ignored until trusted, used once trusted, and ignored again when it changes', async () => {
    const workspace = await models.folder('cw-mcp-project-');
    await writeFile(
      join(workspace, '.mcp.json'),
      JSON.stringify({ mcpServers: { everything: { type: 'stdio', ...(await everythingEntry()) } } }),
    );
    const model = await models.model('chat-completions');
    const home = await models.home(model, { mcpServers: { mine: { command: 'cw-no-such-server', disabled: true } } });
    const env = models.envFor(home);
    const run = (args: string[]) => runCwChild(args, env, { cwd: workspace });
    const list = async (): Promise<Listed> => JSON.parse((await run(['mcp', 'list', '--json'])).stdout) as Listed;
    const mcpServers = async (): Promise<number> => {
      const preview = await run(['preview-request', 'json', '--prompt', 'hi']);
      expect(preview.code, preview.stderr).toBe(0);
      return (JSON.parse(preview.stdout) as { tools: { exact: { mcp_server_count: number } } }).tools.exact
        .mcp_server_count;
    };

    expect(await list()).toMatchObject({ servers: [{ name: 'mine', scope: 'user' }], untrusted_project_servers: 1 });
    expect((await run(['mcp', 'list'])).stdout).toContain('cw mcp trust');
    expect(await mcpServers()).toBe(0);

    const trust = await run(['mcp', 'trust']);
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toMatch(/everything +stdio/);
    expect(trust.stdout).not.toContain(workspace);
    expect(await list()).toMatchObject({
      servers: [{ name: 'mine' }, { name: 'everything', scope: 'project', snapshot: 'none' }],
      untrusted_project_servers: 0,
    });
    expect((await run(['mcp', 'refresh'])).code).toBe(0);
    expect(await mcpServers()).toBe(1);

    // Added through cw: the person wrote it, so the file stays trusted.
    const add = await run(['mcp', 'add', 'more', '--scope', 'project', '--', 'cw-no-such-server', '--flag']);
    expect(add.code, add.stderr).toBe(0);
    const file = JSON.parse(await readFile(join(workspace, '.mcp.json'), 'utf8'));
    expect(file.mcpServers.more).toEqual({ command: 'cw-no-such-server', args: ['--flag'] });
    expect(file.mcpServers.everything.type).toBe('stdio');
    expect((await list()).servers.map((server) => server.name)).toEqual(['mine', 'everything', 'more']);

    // Changed by someone else: not trusted any more, its servers are left out.
    await writeFile(join(workspace, '.mcp.json'), JSON.stringify({ ...file, extra: true }));
    expect(await list()).toMatchObject({ servers: [{ name: 'mine' }], untrusted_project_servers: 2 });
    expect(await mcpServers()).toBe(0);
  }, 60_000);

  it('get shows names, never values; enable and disable change only disabled', async () => {
    const model = await models.model('chat-completions');
    const home = await models.home(model, {
      mcpServers: { files: { command: 'files-server', args: ['/secret/place'], env: { TOKEN: '${env:FILES_TOKEN}' } } },
    });
    const env = models.envFor(home);
    const get = await runCwChild(['mcp', 'get', 'files', '--json'], env);
    expect(get.code, get.stderr).toBe(0);
    expect(JSON.parse(get.stdout)).toMatchObject({
      name: 'files',
      scope: 'user',
      transport: 'stdio',
      target: 'files-server',
      enabled: true,
      env_names: ['TOKEN'],
      snapshot: 'none',
    });
    expect(get.stdout).not.toContain('/secret/place');
    expect(get.stdout).not.toContain('FILES_TOKEN');
    expect((await runCwChild(['mcp', 'disable', 'files'], env)).code).toBe(0);
    const config = () => readFile(join(home, 'config.json'), 'utf8').then((text) => JSON.parse(text));
    expect((await config()).mcpServers.files.disabled).toBe(true);
    expect((await runCwChild(['mcp', 'enable', 'files'], env)).code).toBe(0);
    expect((await config()).mcpServers.files).toEqual({
      command: 'files-server',
      args: ['/secret/place'],
      env: { TOKEN: '${env:FILES_TOKEN}' },
    });
    const missing = await runCwChild(['mcp', 'disable', 'nope'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no MCP server named nope');
  }, 30_000);

  it('cw mcp logs shows a .mcp.json server, before trust and after it has run', async () => {
    const workspace = await models.folder('cw-mcp-project-logs-');
    await writeFile(
      join(workspace, '.mcp.json'),
      JSON.stringify({ mcpServers: { fixture: { type: 'stdio', ...stdioFixtureEntry() } } }),
    );
    const model = await models.model('chat-completions');
    const home = await models.home(model);
    const run = (args: string[]) => runCwChild(args, models.envFor(home), { cwd: workspace });

    const untrusted = await run(['mcp', 'logs', 'fixture']);
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(untrusted.stdout).toContain('No log for fixture yet');
    expect((await run(['mcp', 'trust'])).code).toBe(0);
    const refreshed = await run(['mcp', 'refresh']);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    const logs = await run(['mcp', 'logs', 'fixture']);
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout).not.toContain('No log');
    expect(logs.stdout).not.toContain(workspace);
    // A name configured nowhere is still refused.
    const unknown = await run(['mcp', 'logs', 'nothere']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('no MCP server named nothere');
  });
});
