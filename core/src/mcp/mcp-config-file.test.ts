import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../config/cw-config.js';
import { addMcpServer, McpConfigEditError, readMcpServers, removeMcpServer } from './mcp-config-file.js';
import { readMcpSnapshot, writeMcpSnapshot } from './mcp-snapshot-store.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'cw-mcp-config-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const configFile = () => join(home, 'config.json');
const readRaw = async () => JSON.parse(await readFile(configFile(), 'utf8')) as Record<string, unknown>;

async function editError(run: Promise<unknown>): Promise<McpConfigEditError> {
  const error = await run.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(McpConfigEditError);
  return error as McpConfigEditError;
}

describe('addMcpServer', () => {
  it('creates config.json when there is none, with the entry as written', async () => {
    await addMcpServer(home, 'files', { command: 'files-mcp', args: ['--root', '.'] });
    expect(await readRaw()).toEqual({ mcpServers: { files: { command: 'files-mcp', args: ['--root', '.'] } } });
    expect((await readMcpServers(home))['files']).toEqual({
      command: 'files-mcp',
      args: ['--root', '.'],
      env: {},
      disabled: false,
    });
    expect((await readdir(home)).sort()).toEqual(['config.json']);
  });

  it('keeps every other key and server', async () => {
    await writeFile(
      configFile(),
      JSON.stringify({ route: 'deepseek', mcpServers: { web: { url: 'https://h.example.com/mcp' } }, approval: 'ask' }),
    );
    await addMcpServer(home, 'files', { command: 'files-mcp' });
    expect(await readRaw()).toEqual({
      route: 'deepseek',
      mcpServers: { web: { url: 'https://h.example.com/mcp' }, files: { command: 'files-mcp' } },
      approval: 'ask',
    });
  });

  it('stores references unexpanded', async () => {
    await addMcpServer(home, 'web', {
      url: 'https://h.example.com/mcp',
      headers: { Authorization: 'Bearer ${env:T}' },
    });
    expect(await readFile(configFile(), 'utf8')).toContain('Bearer ${env:T}');
  });

  it('refuses a literal secret and changes nothing', async () => {
    const token = 'ghp_FAKE0test0ONLY0not0a0real0token00000';
    const error = await editError(addMcpServer(home, 'gh', { command: 'gh-mcp', env: { GITHUB_TOKEN: token } }));
    expect(error.safeMessage).toContain('GITHUB_TOKEN');
    expect(error.safeMessage).toContain('${env:GITHUB_TOKEN}');
    expect(error.safeMessage).not.toContain(token);
    await expect(readFile(configFile())).rejects.toThrow();
  });

  it('refuses a bad name, a taken name and an invalid entry, without repeating values', async () => {
    await editError(addMcpServer(home, 'bad name', { command: 'x' }));
    await editError(addMcpServer(home, '__proto__', { command: 'x' }));
    await editError(addMcpServer(home, 'x'.repeat(65), { command: 'x' }));
    const both = await editError(addMcpServer(home, 'a', { command: 'x', url: 'https://h.example.com/' }));
    expect(both.safeMessage).toContain('both command and url');
    const url = await editError(addMcpServer(home, 'a', { url: 'https://user:hunter2@h.example.com/' }));
    expect(url.safeMessage).toContain('field url');
    expect(url.safeMessage).not.toContain('hunter2');
    await addMcpServer(home, 'files', { command: 'files-mcp' });
    const taken = await editError(addMcpServer(home, 'files', { command: 'other' }));
    expect(taken.safeMessage).toContain('already configured');
    expect((await readMcpServers(home))['files']).toMatchObject({ command: 'files-mcp' });
  });

  it('refuses to rewrite a config.json that does not load', async () => {
    await writeFile(configFile(), '{"route": ');
    await expect(addMcpServer(home, 'files', { command: 'files-mcp' })).rejects.toBeInstanceOf(ConfigError);
    expect(await readFile(configFile(), 'utf8')).toBe('{"route": ');
  });
});

describe('removeMcpServer', () => {
  it('removes the server from config and from the snapshot, keeping the rest', async () => {
    await writeFile(
      configFile(),
      JSON.stringify({
        route: 'deepseek',
        mcpServers: { files: { command: 'files-mcp' }, web: { url: 'https://h.example.com/mcp' } },
      }),
    );
    const entry = { fingerprint: 'f'.repeat(64), server: null, tools: [], refreshed_at: '2026-01-01T00:00:00.000Z' };
    await writeMcpSnapshot(home, { version: 1, servers: { files: entry, web: entry } });
    expect(await removeMcpServer(home, 'files')).toBe(true);
    expect(await readRaw()).toEqual({ route: 'deepseek', mcpServers: { web: { url: 'https://h.example.com/mcp' } } });
    expect(Object.keys((await readMcpSnapshot(home)).servers)).toEqual(['web']);
  });

  it('returns false and changes nothing for an unknown name', async () => {
    await writeFile(configFile(), JSON.stringify({ mcpServers: { files: { command: 'files-mcp' } } }));
    const before = await readFile(configFile(), 'utf8');
    expect(await removeMcpServer(home, 'web')).toBe(false);
    expect(await removeMcpServer(home, 'toString')).toBe(false);
    expect(JSON.parse(await readFile(configFile(), 'utf8'))).toEqual(JSON.parse(before));
  });
});
