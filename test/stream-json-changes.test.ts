// `cw send --output-format stream-json` tells a script what each call changed (docs/cli.md, "Event
// stream"): a `tool-result` line of a call that wrote a file carries `changes` (path relative to the
// workspace, lines added and removed); a call that wrote nothing has none. Every line is checked
// against the published docs/events.schema.json.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { type ScriptedCall, useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const models = useScriptedModels('CW_STREAM_CHANGES_KEY', FAKE_KEY);
const schema = JSON.parse(await readFile(new URL('../docs/events.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

const call = (id: string, name: string, args: unknown): ScriptedCall => ({ id, name, arguments: JSON.stringify(args) });
const READ = call('call_read', 'read_file', { path: 'notes.txt' });
const EDIT = call('call_edit', 'edit_file', {
  path: 'notes.txt',
  old_text: 'milk\n',
  new_text: 'bread\nand eggs\n',
});

describe('stream-json: the change summary on tool-result', () => {
  it('an edit that ran carries +N −M for its file; a read carries none', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [READ, EDIT] } },
      { carries: [{ id: EDIT.id, includes: 'edited notes.txt' }], reply: { text: 'Done.' } },
    );
    const ws = await models.folder('cw-stream-changes-ws-');
    await writeFile(join(ws, 'notes.txt'), 'remember the\nmilk\n');
    const home = await models.home(model, { workspace: ws, approval: 'workspace' });
    const run = await runCwChild(['send', '--output-format', 'stream-json', '--prompt', 'edit'], models.envFor(home));
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((text) => {
        const line = JSON.parse(text) as Record<string, unknown>;
        expect(validate(line), `${text}\n${JSON.stringify(validate.errors)}`).toBe(true);
        return line;
      });
    const results = lines.filter((line) => line['type'] === 'tool-result');
    expect(results.map((line) => [line['id'], line['status'], line['changes']])).toEqual([
      [READ.id, 'ok', undefined],
      [EDIT.id, 'ok', [{ path: 'notes.txt', added: 2, removed: 1 }]],
    ]);
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('remember the\nbread\nand eggs\n');
    expect(model.problems).toEqual([]);
  });
});
