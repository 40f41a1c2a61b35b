// A long MCP call shows the server's progress notifications, with the published everything server.
import { describe, expect, it } from 'vitest';
import { everythingEntry } from './support/published-mcp-server.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const models = useScriptedModels('CW_MCP_PROGRESS_KEY', `sk-test-${'8'.repeat(32)}`);

describe('MCP progress', () => {
  it('each progress notification of a long call is one line on stderr', async () => {
    const call = {
      id: 'call_long',
      name: 'mcp__everything__trigger-long-running-operation',
      arguments: '{"duration":1,"steps":3}',
    };
    const model = await models.model('chat-completions', { reply: { calls: [call] } }, { reply: { text: 'done' } });
    const home = await models.home(model, {
      approval: 'read-only',
      mcpServers: { everything: await everythingEntry() },
    });
    const send = await runCwChild(['send', '--prompt', 'go'], models.envFor(home));
    expect(send.code, send.stderr).toBe(0);
    // The last notification may race the result; the ones before it arrive while the call runs.
    expect(send.stderr).toMatch(/^cw: ▸ mcp__everything__trigger-long-running-operation progress 1\/3/m);
    expect(send.stderr).toMatch(/^cw: ▸ mcp__everything__trigger-long-running-operation progress 2\/3/m);
  }, 30_000);
});
