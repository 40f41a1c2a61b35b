// Trusting a workspace's .mcp.json covers the workspace files its servers run (docs/mcp.md, "Project
// scope"): the model can edit server.mjs but not the trust record, so an edited, replaced or newly
// linked script leaves its server out until the person trusts it again, with one line saying why.
import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MCP_FIXTURE } from './support/mcp-fixture.js';
import { needBubblewrap } from './support/require-bubblewrap.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_MCP_TRUSTED_FILES_KEY';
const KEY = `sk-test-${'5'.repeat(32)}`;
const models = useScriptedModels(KEY_ENV, KEY);

/** A launcher that notes each start in `marks` (outside the workspace), then runs the fixture server. */
const launcher = (marks: string, label: string): string =>
  `import { appendFileSync } from 'node:fs';\n// ${label}\nappendFileSync(${JSON.stringify(marks)}, ${JSON.stringify(label)});\nawait import(${JSON.stringify(MCP_FIXTURE)});\n`;

const callEcho = { id: 'call_echo', name: 'mcp__scripted__echo', arguments: '{"text":"through mcp"}' };

/** A workspace whose .mcp.json runs server.mjs, trusted and started once (`starts()` is 'A'). */
async function trustedProject() {
  const workspace = await models.folder('cw-mcp-files-ws-');
  const outside = await models.folder('cw-mcp-files-out-');
  const marks = join(outside, 'starts.txt');
  const script = join(workspace, 'server.mjs');
  const original = launcher(marks, 'A');
  await writeFile(script, original);
  await writeFile(
    join(workspace, '.mcp.json'),
    JSON.stringify({ mcpServers: { scripted: { command: process.execPath, args: ['server.mjs'] } } }),
  );
  const model = await models.model('chat-completions');
  const home = await models.home(model, { approval: 'read-only' });
  const env = models.envFor(home);
  const run = (args: string[]) => runCwChild(args, env, { cwd: workspace });
  const starts = async (): Promise<string> => readFile(marks, 'utf8').catch(() => '');
  const waiting = async (): Promise<number> =>
    (JSON.parse((await run(['mcp', 'list', '--json'])).stdout) as { untrusted_project_servers: number })
      .untrusted_project_servers;

  expect((await run(['mcp', 'trust'])).code).toBe(0);
  const refresh = await run(['mcp', 'refresh']);
  expect(refresh.code, refresh.stderr).toBe(0);
  expect(await starts()).toBe('A');
  expect(await waiting()).toBe(0);
  return { workspace, outside, marks, script, original, model, run, starts, waiting };
}

describe('trust covers the workspace files a project server runs', () => {
  it('an edited script is not started and one line says so; restored, it is trusted again; a link in its place is not', async () => {
    const { workspace, outside, marks, script, original, model, run, starts, waiting } = await trustedProject();

    // The model edits the script: the entry in .mcp.json is unchanged, the program is not.
    await writeFile(script, launcher(marks, 'B'));
    expect(await waiting()).toBe(1);
    model.andThen({ reply: { calls: [callEcho] } }, { reply: { text: 'done' } });
    const edited = await run(['send', '--prompt', 'use the echo tool']);
    expect(edited.code, edited.stderr).toBe(0);
    expect(await starts()).toBe('A');
    const lines = edited.stderr.split('\n').filter((line) => line.includes('changed since you trusted it'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('scripted');
    expect(edited.stderr).not.toContain('server.mjs');
    expect(edited.stderr).not.toContain(workspace);

    // Put back as it was trusted: used again, and the model's call reaches it.
    await writeFile(script, original);
    expect(await waiting()).toBe(0);
    model.andThen(
      { reply: { calls: [callEcho] } },
      { carries: [{ id: 'call_echo', includes: 'through mcp' }], reply: { text: 'echoed' } },
    );
    const restored = await run(['send', '--prompt', 'use the echo tool']);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stderr).not.toContain('changed since you trusted it');
    expect(await starts()).toBe('AA');

    // Replaced by a link to a file of the same bytes outside the workspace: not what was trusted.
    await writeFile(join(outside, 'server.mjs'), original);
    await rm(script);
    await symlink(join(outside, 'server.mjs'), script);
    expect(await waiting()).toBe(1);
    expect(model.problems).toEqual([]);
  }, 60_000);

  // The edit is a shell command under workspace, so this part takes the sandbox.
  it('edited by a command during a send, after its snapshot: read again and not started', async (context) => {
    needBubblewrap(context);
    const { script, model, run, starts } = await trustedProject();

    model.andThen(
      {
        reply: { calls: [{ id: 'call_edit', name: 'shell', arguments: '{"command":"echo // edited >> server.mjs"}' }] },
      },
      { reply: { calls: [callEcho] } },
      { carries: [{ id: 'call_echo', includes: 'changed since you trusted it' }], reply: { text: 'refused' } },
    );
    const during = await run(['send', '--approval', 'workspace', '--prompt', 'edit, then use the echo tool']);
    expect(during.code, during.stderr).toBe(0);
    expect(await readFile(script, 'utf8')).toContain('// edited');
    expect(await starts()).toBe('A');
    expect(model.problems).toEqual([]);
  }, 60_000);
});
