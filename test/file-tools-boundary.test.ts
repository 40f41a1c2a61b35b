// The file tools' boundary end to end (docs/security.md, "Files cw opens in the workspace"): the BUILT
// CLI runs a scripted model's calls on 127.0.0.1 against a workspace whose config hides `.env` through
// `sandbox.deny_read`, and which holds a git folder; what comes back to the model and what is left on
// disk are checked.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { type ScriptedCall, useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_BOUNDARY_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
const TOKEN = 'sk-test-0denied-env-value';
const GIT_CONFIG = '[core]\n\tbare = false\n';

const call = (id: string, name: string, args: unknown): ScriptedCall => ({
  id,
  name,
  arguments: JSON.stringify(args),
});

describe('the file tools at the workspace boundary', () => {
  it('honour deny_read from config and refuse a git config, each with one line the model reads', async () => {
    const ws = await models.folder('cw-boundary-');
    await writeFile(join(ws, '.env'), `TOKEN=${TOKEN}\n`);
    await writeFile(join(ws, 'notes.txt'), 'TOKEN lives in the env file\n');
    await mkdir(join(ws, '.git'));
    await writeFile(join(ws, '.git', 'config'), GIT_CONFIG);
    const model = await models.model(
      'chat-completions',
      {
        reply: {
          calls: [
            call('call_1', 'read_file', { path: '.env' }),
            call('call_2', 'search', { pattern: 'TOKEN' }),
            call('call_3', 'edit_file', { path: '.git/config', old_text: 'false', new_text: 'true' }),
          ],
        },
      },
      {
        carries: [
          { id: 'call_1', includes: "refused: deny_read entry 1 is hidden from cw's tools and commands" },
          { id: 'call_2', includes: 'notes.txt:1: TOKEN lives in the env file\n[skipped 1 path(s) the sandbox hides]' },
          { id: 'call_3', includes: 'refused: only what a commit writes may change inside .git' },
        ],
        reply: { text: 'done' },
      },
    );
    const home = await models.home(model, {
      workspace: ws,
      approval: 'workspace',
      sandbox: { mode: 'off', deny_read: ['.env'] },
    });
    const run = await runCwChild(['send', '--prompt', 'find the token'], models.envFor(home));
    expect(run.code, run.stderr).toBe(0);
    expect(model.problems).toEqual([]);
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[1]?.view.body)).not.toContain(TOKEN);
    expect(await readFile(join(ws, '.git', 'config'), 'utf8')).toBe(GIT_CONFIG);
  });
});
