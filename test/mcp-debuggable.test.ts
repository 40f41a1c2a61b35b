// A failing MCP server says why, its stderr is kept (redacted) for `cw mcp logs`, `cw mcp list`
// reports a failed refresh as failed, CW_DEBUG=mcp traces the exchange without its content, and
// many servers at once print no Node warning; with the published reference servers.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { everythingEntry, filesystemEntry } from './support/published-mcp-server.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_MCP_DEBUG_KEY';
const KEY = `sk-test-${'5'.repeat(32)}`;
const models = useScriptedModels(KEY_ENV, KEY);

describe('MCP servers people can debug', () => {
  it('a filesystem server given a missing folder: refresh names the cause from its stderr, list says failed, logs shows it', async () => {
    const folder = await models.folder('cw-mcp-fail-');
    const missing = join(folder, 'no-such-folder');
    const model = await models.model('chat-completions');
    const home = await models.home(model, { mcpServers: { files: await filesystemEntry(missing) } });
    const env = models.envFor(home);

    const refresh = await runCwChild(['mcp', 'refresh'], env);
    expect(refresh.code).toBe(1);
    expect(refresh.stdout).toMatch(
      /FAIL {2}files +failed: connection-closed: .*; the server said: .*directories are accessible/,
    );
    // The server's words pass through redaction: the folder it named is not printed.
    expect(refresh.stdout + refresh.stderr).not.toContain(folder);

    const list = await runCwChild(['mcp', 'list', '--json'], env);
    const [listed] = (
      JSON.parse(list.stdout) as { servers: { snapshot: string; failure: { code: string; detail: string } }[] }
    ).servers;
    expect(listed?.snapshot).toBe('failed');
    expect(listed?.failure.code).toBe('connection-closed');
    expect(listed?.failure.detail).toContain('directories are accessible');
    const table = await runCwChild(['mcp', 'list'], env);
    expect(table.stdout).toContain('failed');
    expect(table.stdout).toContain('the last refresh failed');
    expect(table.stdout).not.toContain('run cw mcp refresh');

    const logs = await runCwChild(['mcp', 'logs', 'files'], env);
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout).toContain('Cannot access directory <path-redacted>');
    expect(logs.stdout).not.toContain(folder);
    const stored = await readFile(join(home, 'mcp', 'logs', 'files.log'), 'utf8');
    expect(stored).not.toContain(folder);

    // Fixed: the next refresh is fine, and list no longer says failed.
    await mkdir(missing);
    expect((await runCwChild(['mcp', 'refresh'], env)).code).toBe(0);
    const again = await runCwChild(['mcp', 'list', '--json'], env);
    expect(
      (JSON.parse(again.stdout) as { servers: { snapshot: string; failure: unknown }[] }).servers[0],
    ).toMatchObject({
      snapshot: 'fresh',
      failure: null,
    });
  }, 30_000);

  it('--debug and CW_DEBUG=mcp print the exchange as methods, ids and sizes, never what the messages hold', async () => {
    const model = await models.model('chat-completions');
    const home = await models.home(model, { mcpServers: { everything: await everythingEntry() } });
    for (const run of [
      await runCwChild(['mcp', 'refresh', '--debug'], models.envFor(home)),
      await runCwChild(['mcp', 'refresh'], models.envFor(home, { CW_DEBUG: 'mcp' })),
    ]) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/^cw: mcp everything → request initialize #0 \(\d+ bytes\)$/m);
      expect(run.stderr).toMatch(/^cw: mcp everything ← result #0 \(\d+ bytes\)$/m);
      expect(run.stderr).toMatch(/^cw: mcp everything → request tools\/list #1 \(\d+ bytes\)$/m);
      // No tool description or schema text: only the trace's own words.
      expect(run.stderr).not.toContain('Echoes back');
      expect(run.stderr).not.toContain('inputSchema');
    }
    const quiet = await runCwChild(['mcp', 'refresh'], models.envFor(home));
    expect(quiet.stderr).not.toContain('cw: mcp');
  }, 30_000);

  it('ten servers at once: refresh and send print no Node warning', async () => {
    const folder = await models.folder('cw-mcp-ten-');
    const servers: Record<string, unknown> = {};
    for (let index = 0; index < 10; index += 1) {
      await mkdir(join(folder, `root${index}`));
      servers[`fs${index}`] = await filesystemEntry(join(folder, `root${index}`));
    }
    const model = await models.model('chat-completions', { reply: { text: 'done' } });
    const home = await models.home(model, { approval: 'workspace', mcpServers: servers });
    const env = models.envFor(home);
    const refresh = await runCwChild(['mcp', 'refresh'], env);
    expect(refresh.code, refresh.stdout).toBe(0);
    expect(refresh.stderr).not.toMatch(/Warning|MaxListeners/);
    const send = await runCwChild(['send', '--prompt', 'hi'], env);
    expect(send.code, send.stderr).toBe(0);
    expect(send.stderr).not.toMatch(/Warning|MaxListeners/);
    await writeFile(join(folder, 'done'), '');
  }, 60_000);
});
