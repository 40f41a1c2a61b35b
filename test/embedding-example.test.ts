// docs/embedding.md's example (docs/examples/embed-agent.mjs) runs as a reader would run it, against
// a local scripted model: it previews, then streams a tool loop's events — a read approved, a shell
// call refused by its approval callback — and the totals of the turn.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY, REPO_ROOT } from './support/cw-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';

const KEY_ENV = 'CW_EMBED_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
const EXAMPLE = join(REPO_ROOT, 'docs', 'examples', 'embed-agent.mjs');

function runExample(
  prompt: string,
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [EXAMPLE, prompt], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}

describe('docs/embedding.md example', () => {
  it('previews, then streams the loop: approved read, refused shell, answer and summed usage', async () => {
    const read = { id: 'call_read', name: 'read_file', arguments: '{"path":"notes.txt"}' };
    const shell = { id: 'call_shell', name: 'shell', arguments: '{"command":"echo hi > out.txt"}' };
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [read, shell] } },
      {
        carries: [
          { id: 'call_read', includes: 'remember the milk' },
          { id: 'call_shell', includes: '' },
        ],
        reply: { text: 'The notes say: remember the milk.' },
      },
    );
    const ws = await models.folder('cw-embed-ws-');
    await writeFile(join(ws, 'notes.txt'), 'remember the milk\n');
    const home = await models.home(model, { workspace: ws });
    const { CW_DATA_DIR: _data, ...env } = models.envFor(home);
    const run = await runExample('what do my notes say?', env, ws);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const previewed = lines[0]?.match(/^preview: ([0-9a-f]{64})$/)?.[1];
    expect(previewed).toBeDefined();
    // The first request went out with the hash the preview showed, and the model received those bytes.
    expect(lines).toContain(`step 1: ${previewed}`);
    expect(model.requests[0]?.canonicalSha256).toBe(previewed);
    expect(lines).toContain('tool read_file: ok');
    expect(lines).toContain('tool shell: refused');
    expect(run.stdout).toContain('The notes say: remember the milk.');
    // Usage over both requests: 100 + 101 in, 7 + 7 out.
    expect(lines).toContain('done (answered) after 2 requests: 201 in, 14 out');
    expect(model.problems).toEqual([]);
  });
});
