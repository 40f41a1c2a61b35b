// An interactive host's MCP servers (docs/mcp.md, "In an interactive session"): with one session
// scope over several agent.run calls, a server starts only when the model first calls one of its
// tools, stays up for the later turns, and stops when the scope closes.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSessionScope, mcpSessionStates } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { scriptedAgent } from './support/scripted-agent.js';
import { MCP_FIXTURE } from './support/mcp-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const models = useScriptedModels('CW_MCP_SCOPE_KEY', FAKE_KEY);

/** A stdio fixture server that leaves a mark each time it starts, so the test can count starts. */
async function countingServer(
  folder: string,
): Promise<{ entry: Record<string, unknown>; launcher: string; starts: () => Promise<number> }> {
  const marks = join(folder, 'starts.log');
  const launcher = join(folder, 'launch.mjs');
  await writeFile(
    launcher,
    `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(marks)}, 'x');\nawait import(${JSON.stringify(MCP_FIXTURE)});\n`,
  );
  return {
    entry: { command: process.execPath, args: [launcher] },
    launcher,
    starts: async () => (await readFile(marks, 'utf8').catch(() => '')).length,
  };
}

const running = (launcher: string): boolean =>
  execFileSync('ps', ['-A', '-o', 'stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .some((line) => line.includes(launcher) && !line.trim().startsWith('Z'));

const echo = (id: string, text: string) => ({ id, name: 'mcp__fixture__echo', arguments: JSON.stringify({ text }) });

describe('MCP servers under a session scope', () => {
  it('start on the first call of their tools, stay up across turns, and stop with the scope', async () => {
    const folder = await models.folder('cw-mcp-scope-');
    const server = await countingServer(folder);
    const model = await models.model(
      'chat-completions',
      { reply: { text: 'no tools needed' } },
      { reply: { calls: [echo('call_1', 'first')] } },
      { carries: [{ id: 'call_1', includes: 'first' }], reply: { text: 'echoed once' } },
      { reply: { calls: [echo('call_2', 'second')] } },
      { carries: [{ id: 'call_2', includes: 'second' }], reply: { text: 'echoed twice' } },
    );
    const ws = await models.folder('cw-mcp-scope-ws-');
    const home = await models.home(model, {
      workspace: ws,
      approval: 'workspace',
      mcpServers: { fixture: server.entry },
    });
    const refreshed = await runCwChild(['mcp', 'refresh'], models.envFor(home));
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(await server.starts()).toBe(1);

    const agent = await scriptedAgent(models, home, ws);
    const scope = createSessionScope();
    const servers = (await agent.load()).snapshot.config.mcpServers;
    const turn = async (prompt: string): Promise<string> => {
      const run = agent.run(prompt, { scope });
      for await (const _event of run) {
        // Drained: the outcome is what counts here.
      }
      return (await run.result).reply.text;
    };
    try {
      // The snapshot offers the server's tools: a turn that calls none starts nothing.
      expect(await turn('hello')).toBe('no tools needed');
      expect(
        JSON.parse(model.requests[0]?.view.raw ?? '{}').tools.map(
          (tool: { function: { name: string } }) => tool.function.name,
        ),
      ).toContain('mcp__fixture__echo');
      expect(await server.starts()).toBe(1);
      expect(mcpSessionStates(scope, servers)).toEqual([{ name: 'fixture', state: 'not-started' }]);

      expect(await turn('echo first')).toBe('echoed once');
      expect(await server.starts()).toBe(2);
      expect(mcpSessionStates(scope, servers)).toEqual([{ name: 'fixture', state: 'running' }]);
      expect(running(server.launcher)).toBe(true);

      // The next turn calls the server that is already up: no new start.
      expect(await turn('echo second')).toBe('echoed twice');
      expect(await server.starts()).toBe(2);
      expect(model.problems).toEqual([]);
    } finally {
      await scope.close();
    }
    expect(running(server.launcher)).toBe(false);
    expect(mcpSessionStates(scope, servers)).toEqual([{ name: 'fixture', state: 'not-started' }]);
  });
});
