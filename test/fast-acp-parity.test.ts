// `cw acp` has an entry that does not load oclif (cli/src/entry/fast-acp.ts). It must be invisible:
// an editor gets the same answers either way. Each case runs the built CLI the oclif-free way (with a
// hook that reports any module under @oclif/ it resolves) and the oclif way (CW_NO_FAST_PATH=1), each
// on its own home with the same config, in one workspace, against a scripted local model.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY, REPO_ROOT } from './support/cw-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';
import { type CwExit, runCwChild, spawnCw, waitFor } from './support/spawn-cw.js';

const HOOK = join(REPO_ROOT, 'test', 'fixtures', 'report-oclif-imports.mjs');
const OCLIF_LOADED = 'oclif-loaded: ';
const models = useScriptedModels('CW_FAST_ACP_KEY', FAKE_KEY);

const line = (message: unknown): string => `${JSON.stringify(message)}\n`;
const INITIALIZE = line({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: 1, clientCapabilities: {} },
});

/** JSON-RPC requests an editor sends once initialized, one per line. */
const requests = (workspace: string): string =>
  [
    { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: workspace, mcpServers: [] } },
    { jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 'nosuch', prompt: [] } },
    { jsonrpc: '2.0', id: 3, method: 'session/list', params: { cwd: workspace } },
    { jsonrpc: '2.0', id: 4, method: 'session/new', params: { cwd: 'relative', mcpServers: [] } },
  ]
    .map(line)
    .join('');

/** The answers by id, with the one field that must differ (the time a session was updated) left out. */
function answers(stdout: string): unknown[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line.replace(/"updatedAt":"[^"]*"/g, '"updatedAt":"(time)"')) as { id?: number })
    .sort((a, b) => (a.id ?? -1) - (b.id ?? -1));
}

describe('cw acp without oclif', () => {
  it('answers an editor exactly as the oclif command does, and loads no oclif', async () => {
    const model = await models.model('chat-completions');
    const workspace = await models.folder('cw-fast-acp-ws-');
    const run = async (extra: Record<string, string>): Promise<CwExit> => {
      const cw = spawnCw(['acp'], models.envFor(await models.home(model, { workspace }), extra), { cwd: workspace });
      let stdout = '';
      cw.child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
      });
      const answered = (count: number) => () => stdout.split('\n').filter((text) => text !== '').length >= count;
      cw.child.stdin?.write(INITIALIZE);
      await waitFor(answered(1), 20_000, 'the answer to initialize');
      cw.child.stdin?.write(requests(workspace));
      // The editor closes the pipe once every request is answered, as one does when it quits.
      await waitFor(answered(5), 20_000, 'five answers');
      cw.child.stdin?.end();
      return cw.done;
    };
    const fast = await run({ NODE_OPTIONS: `--import=${HOOK}` });
    const oclif = await run({ CW_NO_FAST_PATH: '1' });
    const fastErr = fast.stderr.split(/(?<=\n)/);
    expect(fastErr.filter((line) => line.startsWith(OCLIF_LOADED))).toEqual([]);
    expect(fast.code).toBe(oclif.code);
    expect(fast.code).toBe(0);
    expect(fastErr.join('')).toBe(oclif.stderr);
    expect(answers(fast.stdout)).toEqual(answers(oclif.stdout));
    // The answers are what an editor needs, not two equal failures.
    const byId = answers(fast.stdout) as { id: number; result?: Record<string, unknown>; error?: { code: number } }[];
    expect(byId.find((answer) => answer.id === 0)?.result).toMatchObject({ protocolVersion: 1 });
    expect(byId.find((answer) => answer.id === 1)?.result?.['sessionId']).toMatch(/\/s1$/);
    expect(byId.find((answer) => answer.id === 2)?.error?.code).toBe(-32002);
    expect(byId.find((answer) => answer.id === 4)?.error?.code).toBe(-32602);
    expect(model.requests).toHaveLength(0);
  });

  it('leaves --help and any other argument to oclif', async () => {
    const home = await models.home(await models.model('chat-completions'));
    const help = await runCwChild(['acp', '--help'], models.envFor(home, { NODE_OPTIONS: `--import=${HOOK}` }));
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Serve the Agent Client Protocol');
    expect(help.stderr).toContain(OCLIF_LOADED);
  });
});
