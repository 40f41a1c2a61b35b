// `@server:uri` attaches an MCP resource, with the published everything server: a preview reads no
// resource (its server would have to start), so the body is typed-unavailable and route and tools
// stay exact; a send reads it and the model gets its text; a resource that cannot be read stops the
// turn before anything is sent.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { sessionFile } from './support/cw-fixture.js';
import { everythingEntry } from './support/published-mcp-server.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';
import { withoutNoSandboxNotice } from './support/require-bubblewrap.js';

const models = useScriptedModels('CW_MCP_RESOURCE_KEY', `sk-test-${'7'.repeat(32)}`);
const TEXT_URI = 'demo://resource/dynamic/text/3';
const BLOB_URI = 'demo://resource/dynamic/blob/4';

describe('MCP resource mentions', () => {
  it('preview reports them unread; a send reads them into the user message', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'read both' } });
    const home = await models.home(model, { mcpServers: { everything: await everythingEntry() } });
    const env = models.envFor(home);
    expect((await runCwChild(['mcp', 'refresh'], env)).code).toBe(0);
    const prompt = `compare @everything:${TEXT_URI} with @everything:${BLOB_URI}`;

    const preview = await runCwChild(['preview-request', 'json', '--prompt', prompt], env);
    expect(preview.code, preview.stderr).toBe(0);
    const manifest = JSON.parse(preview.stdout);
    expect(manifest.body.unavailable).toEqual({
      reason: 'mcp-resource-not-read',
      detail: expect.stringContaining('mentions 2 MCP resources'),
    });
    expect('exact' in manifest.route && 'exact' in manifest.tools).toBe(true);
    expect(preview.stdout).not.toContain('demo://');

    const send = await runCwChild(['send', '--prompt', prompt], env);
    expect(send.code, send.stderr).toBe(0);
    expect(model.problems).toEqual([]);
    const body = JSON.parse(model.requests[0]?.view.raw ?? '{}') as { messages: { role: string; content: string }[] };
    const user = body.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
    expect(user).toContain(
      `<resource server="everything" uri="${TEXT_URI}">\nResource 3: This is a plaintext resource`,
    );
    // A text/plain blob is text: decoded, not refused as binary.
    expect(user).toContain(`<resource server="everything" uri="${BLOB_URI}">\nResource 4: This is a base64 blob`);
  }, 60_000);

  it('a resource the server cannot read is one line, exit 1, nothing sent or saved', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'never' } });
    const home = await models.home(model, { mcpServers: { everything: await everythingEntry() } });
    const env = models.envFor(home);
    const send = await runCwChild(['send', '--prompt', 'read @everything:demo://resource/nowhere/secret-path'], env);
    expect(send.code).toBe(1);
    expect(withoutNoSandboxNotice(send.stderr)).toMatch(/^cw: [^\n]*resource mention 1 could not be read: [^\n]+\n$/);
    expect(send.stderr).not.toContain('secret-path');
    expect(model.requests).toHaveLength(0);
    await expect(readFile(await sessionFile(home), 'utf8')).rejects.toThrow();
  }, 60_000);
});
