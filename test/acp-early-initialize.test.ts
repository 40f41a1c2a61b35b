// `cw acp` answers a plain `initialize` itself, before the protocol SDK loads, and hands the stream to
// the SDK's server after (cli/src/acp/early-initialize.ts). The early answer must be the very bytes
// the SDK's server writes: each case runs the built CLI the early way and the oclif way
// (CW_NO_FAST_PATH=1, where the SDK answers), on one home, and compares what each wrote.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY, REPO_ROOT } from './support/cw-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';
import { type CwExit, spawnCw, waitFor } from './support/spawn-cw.js';

const HOOK = join(REPO_ROOT, 'test', 'fixtures', 'report-acp-sdk-imports.mjs');
const SDK_IMPORTED = 'acp-sdk-imported: ';
const STDOUT_WRITTEN = 'stdout-written';
const models = useScriptedModels('CW_EARLY_INIT_KEY', FAKE_KEY);

const line = (message: unknown): string => `${JSON.stringify(message)}\n`;
const initialize = (id: unknown, params?: unknown): string =>
  line({ jsonrpc: '2.0', id, method: 'initialize', ...(params === undefined ? {} : { params }) });

/** The lines of `stdout`, parsed, in the order written. */
const messages = (stdout: string): { id?: unknown; result?: Record<string, unknown>; error?: unknown }[] =>
  stdout
    .split('\n')
    .filter((text) => text !== '')
    .map((text) => JSON.parse(text) as { id?: unknown; result?: Record<string, unknown>; error?: unknown });

describe('cw acp answers initialize before the protocol SDK loads', () => {
  /** A home, a workspace and the environment of a cw child on them. */
  const setUp = async () => {
    const model = await models.model('chat-completions');
    const workspace = await models.folder('cw-early-init-ws-');
    const env = models.envFor(await models.home(model, { workspace }));
    return { workspace, env };
  };

  /**
   * Starts `cw acp`, writes `pieces` one after another (each handed to the pipe before the next), waits
   * for `answers` lines on stdout, then closes stdin as an editor does when it quits.
   */
  const converse = async (
    env: Record<string, string>,
    cwd: string,
    pieces: readonly string[],
    answers: number,
  ): Promise<CwExit> => {
    const cw = spawnCw(['acp'], env, { cwd });
    let stdout = '';
    cw.child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    for (const piece of pieces)
      await new Promise<void>((resolve, reject) =>
        cw.child.stdin?.write(piece, (error) => (error ? reject(error) : resolve())),
      );
    await waitFor(() => messages(stdout).length >= answers, 20_000, `${answers} answers`);
    cw.child.stdin?.end();
    return cw.done;
  };

  it('writes what the SDK writes for every version a client may send, and the same error for a bad initialize', async () => {
    const { workspace, env } = await setUp();
    const cases = [
      initialize(0, { protocolVersion: 1, clientCapabilities: {} }),
      initialize(1, { protocolVersion: 0 }),
      initialize(2, { protocolVersion: 2, clientCapabilities: { fs: { readTextFile: true }, terminal: true } }),
      initialize('editor-1', { protocolVersion: 65535, clientInfo: { name: 'zed', version: '1.0' } }),
      initialize(3, {}),
      initialize(4),
      initialize(5, { protocolVersion: '1' }),
      initialize(6, { protocolVersion: 65536 }),
    ];
    // Two cases at a time, each run both ways at once.
    for (let at = 0; at < cases.length; at += 2) {
      await Promise.all(
        cases.slice(at, at + 2).map(async (request) => {
          const [early, sdk] = await Promise.all([
            converse(env, workspace, [request], 1),
            converse({ ...env, CW_NO_FAST_PATH: '1' }, workspace, [request], 1),
          ]);
          expect(early.stdout, request).toBe(sdk.stdout);
          expect(early.stderr, request).toBe(sdk.stderr);
          expect(early.code, request).toBe(sdk.code);
          expect(messages(early.stdout)).toHaveLength(1);
        }),
      );
    }
  });

  it('loads no SDK or zod module before the answer, and loads them after', async () => {
    const { workspace, env } = await setUp();
    const run = await converse(
      { ...env, NODE_OPTIONS: `--import=${HOOK}` },
      workspace,
      [initialize(0, { protocolVersion: 1 })],
      1,
    );
    const stderr = run.stderr.split('\n');
    const answered = stderr.indexOf(STDOUT_WRITTEN);
    expect(answered).toBeGreaterThanOrEqual(0);
    expect(stderr.slice(0, answered).filter((text) => text.startsWith(SDK_IMPORTED))).toEqual([]);
    expect(stderr.slice(answered).some((text) => text.startsWith(SDK_IMPORTED))).toBe(true);
    expect(messages(run.stdout)[0]?.result?.['protocolVersion']).toBe(1);
  });

  it('serves a client that sends initialize in pieces, or together with its next requests', async () => {
    const { workspace, env } = await setUp();
    const next = [
      line({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: workspace, mcpServers: [] } }),
      line({ jsonrpc: '2.0', id: 2, method: 'session/list', params: { cwd: workspace } }),
    ];
    const request = initialize(0, { protocolVersion: 1, clientCapabilities: {} });
    const sdk = await converse({ ...env, CW_NO_FAST_PATH: '1' }, workspace, [request], 1);
    const pieces = [request.slice(0, 20), request.slice(20, 60), request.slice(60, -1), `\n${next[0]}`, next[1]];
    const together = [request + next.join('')];
    for (const written of [pieces, together]) {
      const run = await converse(env, workspace, written as string[], 3);
      // The SDK handles requests side by side: they are answered in any order, each once.
      const answers = messages(run.stdout).sort((a, b) => Number(a.id) - Number(b.id));
      expect(answers.map((answer) => answer.id)).toEqual([0, 1, 2]);
      expect(run.stdout.slice(0, run.stdout.indexOf('\n') + 1)).toBe(sdk.stdout);
      expect(answers.filter((answer) => answer.error !== undefined)).toEqual([]);
      expect(answers[1]?.result?.['sessionId']).toMatch(/\/s\d+$/);
      expect(run.code).toBe(0);
    }
  });
});
