// `cw mcp add | list | remove | refresh`, on the built CLI (run `npm run build` first).
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCwHomes } from './support/cw-fixture.js';
import { type HttpFixture, MCP_FIXTURE, MCP_FIXTURE_TOOLS, startHttpFixture } from './support/mcp-fixture.js';
import { runCw } from './support/run-cw.js';
import { runCwChild } from './support/spawn-cw.js';

const home = useCwHomes();

const readConfig = async (folder: string) =>
  JSON.parse(await readFile(join(folder, 'config.json'), 'utf8')) as Record<string, unknown>;

interface Listed {
  name: string;
  transport: string;
  target: string;
  enabled: boolean;
  snapshot: string;
  tool_count: number | null;
  tools: string[];
}

async function listJson(): Promise<Listed[]> {
  const result = await runCw(['mcp', 'list', '--json']);
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  return (JSON.parse(result.stdout) as { servers: Listed[] }).servers;
}

let http: HttpFixture;
beforeAll(async () => {
  http = await startHttpFixture();
});
afterAll(async () => {
  await http.stop();
});

describe('cw mcp add', () => {
  it('adds a stdio server: the words after -- are its command line, untouched', async () => {
    const folder = await home({ route: 'deepseek' });
    const result = await runCw([
      'mcp',
      'add',
      'files',
      '--env',
      'FILES_TOKEN=${env:MY_FILES_TOKEN}',
      '--env=LOG=debug',
      '--',
      process.execPath,
      MCP_FIXTURE,
      '--name',
      'files',
      '-y',
      '--env',
      'X=1',
    ]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Added MCP server files (stdio: node)');
    expect(result.stdout).toContain('cw mcp refresh files');
    expect(await readConfig(folder)).toEqual({
      route: 'deepseek',
      mcpServers: {
        files: {
          command: process.execPath,
          args: [MCP_FIXTURE, '--name', 'files', '-y', '--env', 'X=1'],
          env: { FILES_TOKEN: '${env:MY_FILES_TOKEN}', LOG: 'debug' },
        },
      },
    });
  });

  it('adds an HTTP server with headers; list shows the host only', async () => {
    const folder = await home();
    const result = await runCw([
      'mcp',
      'add',
      'docs',
      '--url',
      'https://mcp.example.com/tenants/acme-private/mcp',
      '--header',
      'Authorization=Bearer ${env:DOCS_TOKEN}',
    ]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('(http: mcp.example.com)');
    expect(result.stdout).not.toContain('acme-private');
    expect((await readConfig(folder))['mcpServers']).toEqual({
      docs: {
        url: 'https://mcp.example.com/tenants/acme-private/mcp',
        headers: { Authorization: 'Bearer ${env:DOCS_TOKEN}' },
      },
    });
  });

  it('refuses a literal secret, names the variable and not the value, and writes nothing', async () => {
    const folder = await home({ route: 'deepseek' });
    const token = 'ghp_FAKE0test0ONLY0not0a0real0token00000';
    const result = await runCw(['mcp', 'add', 'gh', '--env', `GITHUB_TOKEN=${token}`, '--', 'github-mcp-server']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('GITHUB_TOKEN');
    expect(result.stderr).toContain('${env:GITHUB_TOKEN}');
    expect(result.stderr + result.stdout).not.toContain(token);
    expect(await readConfig(folder)).toEqual({ route: 'deepseek' });

    const header = await runCw([
      'mcp',
      'add',
      'web',
      '--url',
      'https://mcp.example.com/mcp',
      '--header',
      'Authorization=Bearer 0a1b2c3d4e5f6a7b8c9d0e1f',
    ]);
    expect(header.exitCode).toBe(1);
    expect(header.stderr).toContain('${env:');
    expect(header.stderr).not.toContain('0a1b2c3d4e5f6a7b8c9d0e1f');
    expect(await readConfig(folder)).toEqual({ route: 'deepseek' });
  });

  it('usage mistakes exit 2 without echoing the words', async () => {
    await home();
    for (const argv of [
      ['mcp', 'add', 'files'],
      ['mcp', 'add', 'files', 'files-mcp'],
      ['mcp', 'add', 'web', '--url', 'https://mcp.example.com/mcp', '--', 'cmd'],
      ['mcp', 'add', 'web', '--url', 'https://mcp.example.com/mcp', '--env', 'A=1'],
      ['mcp', 'add', 'files', '--header', 'A=1', '--', 'files-mcp'],
      ['mcp', 'add', 'files', '--env', 'sk-no-equals-sign-secret', '--', 'files-mcp'],
    ]) {
      const result = await runCw(argv);
      expect(result.exitCode, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toContain('Usage: cw mcp add');
      expect(result.stderr).not.toContain('sk-no-equals-sign-secret');
    }
  });

  it('refuses a bad or taken name, and an invalid URL', async () => {
    const folder = await home({ mcpServers: { files: { command: 'files-mcp' } } });
    const taken = await runCw(['mcp', 'add', 'files', '--', 'other-mcp']);
    expect(taken.exitCode).toBe(1);
    expect(taken.stderr).toContain('already configured');
    const bad = await runCw(['mcp', 'add', 'bad.name', '--', 'other-mcp']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('1 to 64 letters');
    const url = await runCw(['mcp', 'add', 'web', '--url', 'ftp://mcp.example.com/']);
    expect(url.exitCode).toBe(1);
    expect(url.stderr).toContain('field url');
    expect((await readConfig(folder))['mcpServers']).toEqual({ files: { command: 'files-mcp' } });
  });
});

describe('cw mcp list and remove', () => {
  it('lists servers without env values, header values or URL paths', async () => {
    await home({
      mcpServers: {
        files: { command: '/opt/tools/bin/files-mcp', args: ['--root', '/home/someone'], env: { A: 'env-value-1' } },
        docs: {
          url: 'https://mcp.example.com/private-path/mcp?tenant=acme',
          headers: { 'X-Tenant': 'header-value-1' },
          disabled: true,
        },
      },
    });
    const text = await runCw(['mcp', 'list']);
    expect(text.exitCode).toBe(0);
    expect(text.stderr).toBe('');
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+TRANSPORT\s+TARGET\s+ENABLED\s+SNAPSHOT\s+TOOLS$/);
    expect(lines[1]).toMatch(/^files\s+stdio\s+files-mcp\s+yes\s+none\s+-$/);
    expect(lines[2]).toMatch(/^docs\s+http\s+mcp\.example\.com\s+no\s+none\s+-$/);
    expect(text.stdout).toContain('1 enabled server has no fresh snapshot');
    for (const hidden of ['env-value-1', 'header-value-1', 'private-path', 'acme', '/opt/tools', '/home/someone']) {
      expect(text.stdout).not.toContain(hidden);
    }
    const servers = await listJson();
    expect(
      servers.map(({ name, transport, target, enabled, snapshot, tool_count }) => ({
        name,
        transport,
        target,
        enabled,
        snapshot,
        tool_count,
      })),
    ).toEqual([
      { name: 'files', transport: 'stdio', target: 'files-mcp', enabled: true, snapshot: 'none', tool_count: null },
      {
        name: 'docs',
        transport: 'http',
        target: 'mcp.example.com',
        enabled: false,
        snapshot: 'none',
        tool_count: null,
      },
    ]);
  });

  it('says so when nothing is configured', async () => {
    await home();
    const result = await runCw(['mcp', 'list']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('No MCP servers configured');
  });

  it('warns about a corrupt snapshot and still lists', async () => {
    const folder = await home({ mcpServers: { files: { command: 'files-mcp' } } });
    await mkdir(join(folder, 'mcp'));
    await writeFile(join(folder, 'mcp', 'snapshot.json'), '{ not json');
    const result = await runCw(['mcp', 'list']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('cw: warning: the MCP snapshot in the cw home is corrupt');
    expect(result.stderr).not.toContain(folder);
    expect(result.stdout).toMatch(/files\s+stdio\s+files-mcp\s+yes\s+none/);
  });

  it('remove deletes the server and keeps the rest; an unknown name is an error', async () => {
    const folder = await home({
      route: 'deepseek',
      mcpServers: { files: { command: 'files-mcp' }, docs: { url: 'https://mcp.example.com/mcp' } },
    });
    const removed = await runCw(['mcp', 'remove', 'files']);
    expect(removed.exitCode).toBe(0);
    expect(removed.stdout).toBe('Removed MCP server files from config.json.\n');
    expect(await readConfig(folder)).toEqual({
      route: 'deepseek',
      mcpServers: { docs: { url: 'https://mcp.example.com/mcp' } },
    });
    const again = await runCw(['mcp', 'remove', 'files']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('no MCP server named files');
  });
});

describe('cw mcp refresh', () => {
  it('refreshes every enabled server, reports each, and list then shows them fresh', async () => {
    const folder = await home({
      mcpServers: {
        local: { command: process.execPath, args: [MCP_FIXTURE] },
        remote: { url: http.url, headers: { Authorization: 'Bearer ${env:CW_MCP_CLI_TOKEN}' } },
        broken: { command: 'cw-no-such-mcp-server-xyz' },
        off: { command: 'cw-no-such-mcp-server-xyz', disabled: true },
      },
    });
    process.env['CW_MCP_CLI_TOKEN'] = 'cli-secret-token-0123456789';
    let result: Awaited<ReturnType<typeof runCw>>;
    try {
      result = await runCw(['mcp', 'refresh']);
    } finally {
      delete process.env['CW_MCP_CLI_TOKEN'];
    }
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^ok\\s+local\\s+${MCP_FIXTURE_TOOLS.length} tools$`)),
      expect.stringMatching(new RegExp(`^ok\\s+remote\\s+${MCP_FIXTURE_TOOLS.length} tools$`)),
      expect.stringMatching(/^FAIL\s+broken\s+failed: spawn-failed: the command was not found$/),
      'Refreshed 2 of 3 MCP servers; the snapshot was written.',
    ]);
    const snapshotText = await readFile(join(folder, 'mcp', 'snapshot.json'), 'utf8');
    expect(snapshotText).not.toContain('cli-secret-token');
    const servers = await listJson();
    expect(servers.map((server) => [server.name, server.snapshot, server.tool_count])).toEqual([
      ['local', 'fresh', MCP_FIXTURE_TOOLS.length],
      ['remote', 'fresh', MCP_FIXTURE_TOOLS.length],
      // A failed refresh is reported as failed, not as never refreshed.
      ['broken', 'failed', null],
      ['off', 'none', null],
    ]);
    expect(servers[0]?.tools).toEqual(MCP_FIXTURE_TOOLS);
  });

  it('refresh <name> --json refreshes that server only; a config change then shows it stale', async () => {
    const folder = await home({
      mcpServers: {
        local: { command: process.execPath, args: [MCP_FIXTURE] },
        other: { command: 'cw-no-such-mcp-server-xyz' },
      },
    });
    const result = await runCw(['mcp', 'refresh', 'local', '--json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      servers: [{ name: 'local', ok: true, tool_count: MCP_FIXTURE_TOOLS.length }],
    });
    const config = await readConfig(folder);
    await writeFile(
      join(folder, 'config.json'),
      JSON.stringify({
        ...config,
        mcpServers: { local: { command: process.execPath, args: [MCP_FIXTURE, '--name', 'x'] } },
      }),
    );
    expect((await listJson()).map((server) => [server.name, server.snapshot, server.tool_count])).toEqual([
      ['local', 'stale', MCP_FIXTURE_TOOLS.length],
    ]);
  });

  it('an unknown or disabled name is an error; no enabled server is not', async () => {
    await home({ mcpServers: { off: { command: 'x', disabled: true } } });
    const unknown = await runCw(['mcp', 'refresh', 'nope']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('no MCP server named nope');
    const disabled = await runCw(['mcp', 'refresh', 'off']);
    expect(disabled.exitCode).toBe(1);
    expect(disabled.stderr).toContain('is disabled');
    const none = await runCw(['mcp', 'refresh']);
    expect(none.exitCode).toBe(0);
    expect(none.stdout).toBe('No enabled MCP servers to refresh.\n');
  });

  it('as a child process: a failing server is named with its last stderr words, redacted; its stderr is kept for cw mcp logs', async () => {
    const folder = await home({
      mcpServers: {
        local: { command: process.execPath, args: [MCP_FIXTURE] },
        dies: { command: process.execPath, args: [MCP_FIXTURE, '--exit-at-start'] },
      },
    });
    const result = await runCwChild(['mcp', 'refresh'], {
      CW_HOME: folder,
      CW_DATA_DIR: join(folder, 'data'),
      FIXTURE_TEST_API_KEY: 'sk-fixture-should-not-leak-0123456789',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`^ok\\s+local\\s+${MCP_FIXTURE_TOOLS.length} tools$`, 'm'));
    expect(result.stdout).toMatch(
      /^FAIL\s+dies\s+failed: connection-closed: .*; the server said: .*fixture-server: failing at start on purpose$/m,
    );
    // The server that answered says nothing on the terminal; what either wrote is never printed unredacted.
    expect(result.stdout).not.toMatch(/^ok.*FIXTURE_STDERR_MARKER/m);
    for (const output of [result.stdout, result.stderr]) expect(output).not.toContain('sk-fixture');
    expect((await readdir(join(folder, 'mcp'))).sort()).toEqual(['logs', 'refresh-failures.json', 'snapshot.json']);
    const logs = await runCwChild(['mcp', 'logs', 'dies'], { CW_HOME: folder, CW_DATA_DIR: join(folder, 'data') });
    expect(logs.stdout).toContain('fixture-server: failing at start on purpose');
    expect(logs.stdout).not.toContain('sk-fixture');
  });
});
