// Server prompts, with the published everything server: cw mcp prompts lists them with their
// arguments, and a prompt runs into the text a turn sends, embedded resources with their text.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveMcpPrompt } from '../core/src/mcp/mcp-prompts.js';
import { sessionFile } from './support/cw-fixture.js';
import { everythingEntry } from './support/published-mcp-server.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const models = useScriptedModels('CW_MCP_PROMPTS_KEY', `sk-test-${'6'.repeat(32)}`);
const homes: string[] = [];
afterAll(async () => {
  await Promise.all(homes.map((home) => rm(home, { recursive: true, force: true })));
});

describe('MCP prompts', () => {
  it('cw mcp prompts lists each prompt with its arguments, required ones marked', async () => {
    const model = await models.model('chat-completions');
    const home = await models.home(model, { mcpServers: { everything: await everythingEntry() } });
    const run = await runCwChild(['mcp', 'prompts', '--json'], models.envFor(home));
    expect(run.code, run.stderr).toBe(0);
    const [listing] = (
      JSON.parse(run.stdout) as {
        servers: { ok: boolean; prompts: { name: string; arguments: { name: string; required: boolean }[] }[] }[];
      }
    ).servers;
    const args = listing?.prompts.find((prompt) => prompt.name === 'args-prompt');
    expect(args?.arguments).toEqual([
      expect.objectContaining({ name: 'city', required: true }),
      expect.objectContaining({ name: 'state', required: false }),
    ]);
    const table = await runCwChild(['mcp', 'prompts'], models.envFor(home));
    expect(table.stdout).toMatch(/^everything\/args-prompt \(city\*, state\)/m);
  }, 30_000);

  it('a prompt runs with its arguments; a missing or unknown argument is a one-line error', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cw-mcp-prompt-'));
    homes.push(home);
    const servers = { everything: { ...(await everythingEntry()), env: {}, disabled: false } };
    const text = await resolveMcpPrompt({ home, servers, ref: 'everything/args-prompt', args: { city: 'Lyon' } });
    expect(text).toContain('Lyon');
    const withResource = await resolveMcpPrompt({
      home,
      servers,
      ref: 'everything/resource-prompt',
      args: { resourceType: 'Text', resourceId: '2' },
    });
    expect(withResource).toMatch(/<resource uri="[^"]+"[^>]*>\n.*Resource 2/s);
    await expect(resolveMcpPrompt({ home, servers, ref: 'everything/args-prompt', args: {} })).rejects.toThrow(
      'needs --arg city=VALUE',
    );
    await expect(
      resolveMcpPrompt({ home, servers, ref: 'everything/args-prompt', args: { city: 'x', town: 'y' } }),
    ).rejects.toThrow('takes no argument town');
    await expect(resolveMcpPrompt({ home, servers, ref: 'everything', args: {} })).rejects.toThrow('server/prompt');
  }, 30_000);

  it('cw send --mcp-prompt sends the prompt the server made; a bad one is one line and saves nothing', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'weather noted' } });
    const home = await models.home(model, { mcpServers: { everything: await everythingEntry() } });
    const env = models.envFor(home);
    const send = await runCwChild(['send', '--mcp-prompt', 'everything/args-prompt', '--arg', 'city=Lyon'], env);
    expect(send.code, send.stderr).toBe(0);
    expect(send.stdout).toContain('weather noted');
    const body = JSON.parse(model.requests[0]?.view.raw ?? '{}') as { messages: { role: string; content: unknown }[] };
    const user = body.messages.filter((message) => message.role === 'user').at(-1);
    expect(JSON.stringify(user?.content)).toContain('Lyon');

    const stored = await readFile(await sessionFile(home), 'utf8');
    const missing = await runCwChild(['send', '--mcp-prompt', 'everything/args-prompt'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('cw: the prompt args-prompt needs --arg city=VALUE\n');
    const unknown = await runCwChild(['send', '--mcp-prompt', 'nowhere/x', '--arg', 'a=b'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^cw: no enabled MCP server named nowhere/);
    const both = await runCwChild(['send', '--mcp-prompt', 'everything/args-prompt', '--prompt', 'hi'], env);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--mcp-prompt` and `--prompt` both give the prompt/);
    // None of the failures reached the model or changed the session.
    expect(model.requests).toHaveLength(1);
    expect(await readFile(await sessionFile(home), 'utf8')).toBe(stored);
  }, 60_000);
});
