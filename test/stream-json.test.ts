// `cw send --output-format stream-json` and `--output-format json` (docs/cli.md, "Event stream"): the
// BUILT CLI (run `npm run build` first) runs a tool loop against a scripted model on 127.0.0.1.
// Every line is checked against the published docs/events.schema.json with Ajv, independently of
// cw's own types, and the totals are checked against the model's own per-request usage.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { CW_BIN, FAKE_KEY, sessionFile } from './support/cw-fixture.js';
import { type ScriptedCall, useScriptedModels } from './support/scripted-model.js';
import { cwEnv, runCwChild, spawnCw, waitFor } from './support/spawn-cw.js';
import { isNoSandboxNotice } from './support/require-bubblewrap.js';

const KEY_ENV = 'CW_STREAM_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

const schema = JSON.parse(await readFile(new URL('../docs/events.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

type Line = Record<string, unknown> & { type: string };

const call = (id: string, name: string, args: unknown): ScriptedCall => ({ id, name, arguments: JSON.stringify(args) });
const READ = call('call_read_1', 'read_file', { path: 'notes.txt' });
const EDIT = call('call_edit_2', 'edit_file', { path: 'notes.txt', old_text: 'milk', new_text: 'bread' });
const FINAL = 'Done: the note now says bread.';

/** The three-step loop: read, edit, answer; the scripted model reports 100+N input and 7 output tokens per request. */
async function threeStepLoop() {
  const model = await models.model(
    'chat-completions',
    { reply: { calls: [READ] } },
    { carries: [{ id: READ.id, includes: 'remember the milk' }], reply: { text: 'Editing.', calls: [EDIT] } },
    { carries: [{ id: EDIT.id, includes: 'edited notes.txt' }], reply: { text: FINAL } },
  );
  const ws = await models.folder('cw-stream-ws-');
  await writeFile(join(ws, 'notes.txt'), 'remember the milk\n');
  const home = await models.home(model, { workspace: ws, approval: 'workspace' });
  return { model, ws, home };
}

/** Parses stdout as JSON lines, each checked against the schema. */
function linesOf(stdout: string): Line[] {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((text) => {
      const line = JSON.parse(text) as Line;
      expect(validate(line), `${text}\n${JSON.stringify(validate.errors, null, 2)}`).toBe(true);
      return line;
    });
}

describe('cw send --output-format stream-json', () => {
  it('a three-step loop: one valid line per event, session first, every request hashed, totals that sum the steps', async () => {
    const { model, ws, home } = await threeStepLoop();
    const run = await runCwChild(
      ['send', '--output-format', 'stream-json', '--prompt', 'swap milk for bread'],
      models.envFor(home),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(model.problems).toEqual([]);
    expect(model.requests).toHaveLength(3);
    const lines = linesOf(run.stdout);

    expect(lines[0]).toMatchObject({ type: 'turn-start', session: 'default' });
    expect(lines[0]?.['session_id']).toMatch(/^cw-stream-ws-[A-Za-z0-9_]*-[0-9a-f]{10}\/default$/);
    expect(lines.at(-1)?.type).toBe('result');
    // The order a loop runs in, deltas aside.
    const kept = lines.filter((line) => !line.type.endsWith('-delta') && !isNoSandboxNotice(line));
    expect(kept.map((line) => line.type)).toEqual([
      'turn-start',
      'step-start',
      'tool-call',
      'tool-result',
      'step-finish',
      'step-start',
      'tool-call',
      'tool-result',
      'step-finish',
      'step-start',
      'step-finish',
      'result',
    ]);
    const starts = lines.filter((line) => line.type === 'step-start');
    const finishes = lines.filter((line) => line.type === 'step-finish');
    expect(starts.map((line) => line['body_sha256'])).toEqual(model.requests.map((request) => request.canonicalSha256));
    expect(finishes.map((line) => [line['body_sha256'], line['body_wire_sha256']])).toEqual(
      model.requests.map((request) => [request.canonicalSha256, request.wireSha256]),
    );
    expect(lines.filter((line) => line.type === 'tool-call')).toEqual([
      { type: 'tool-call', id: READ.id, name: 'read_file', arguments: READ.arguments, summary: 'notes.txt' },
      expect.objectContaining({ type: 'tool-call', id: EDIT.id, name: 'edit_file', arguments: EDIT.arguments }),
    ]);
    expect(lines.filter((line) => line.type === 'tool-result').map((line) => [line['id'], line['status']])).toEqual([
      [READ.id, 'ok'],
      [EDIT.id, 'ok'],
    ]);
    const text = lines
      .filter((line) => line.type === 'text-delta')
      .map((line) => line['text'])
      .join('');
    expect(text).toBe(`Editing.${FINAL}`);

    // The totals are the sum of the steps' usage, which is what the model reported for each request.
    const stepUsage = finishes.map((line) => line['usage'] as { input_tokens: number; output_tokens: number });
    expect(stepUsage).toEqual([
      { input_tokens: 100, output_tokens: 7 },
      { input_tokens: 101, output_tokens: 7 },
      { input_tokens: 102, output_tokens: 7 },
    ]);
    const result = lines.at(-1) as Line;
    expect(result).toEqual({
      type: 'result',
      stopped: 'answered',
      session_id: lines[0]?.['session_id'],
      session: 'default',
      steps: 3,
      usage: {
        input_tokens: stepUsage.reduce((sum, usage) => sum + usage.input_tokens, 0),
        output_tokens: stepUsage.reduce((sum, usage) => sum + usage.output_tokens, 0),
        steps_without_usage: 0,
      },
      // The test route publishes no price: every step says why its cost is unknown.
      cost: { usd: null, reason: 'no-published-price' },
      session_cost: { usd: 0, steps_without_cost: 3 },
      text: FINAL,
      tool_calls: [],
    });
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('remember the bread\n');
  });

  it('a failed turn ends the stream with an error line: the --json error, the same exit code, the session untouched', async () => {
    // The model answers the first request; any later one is not in its script and gets a 500.
    const model = await models.model('chat-completions', { reply: { text: 'hello' } });
    const home = await models.home(model, { workspace: await models.folder('cw-stream-fail-') });
    const first = await runCwChild(['send', '--json', '--prompt', 'first'], models.envFor(home));
    expect(first.code, first.stderr).toBe(0);
    const before = await readFile(await sessionFile(home), 'utf8');
    const fail = ['--max-retries', '0', '--prompt', 'fail'];
    const streamed = await runCwChild(['send', '--output-format', 'stream-json', ...fail], models.envFor(home));
    const json = await runCwChild(['send', '--json', ...fail], models.envFor(home));
    expect(streamed.code).toBe(1);
    expect(json.code).toBe(streamed.code);
    const lines = linesOf(streamed.stdout);
    expect(lines[0]?.type).toBe('turn-start');
    expect(lines.at(-1)).toEqual({ type: 'error', ...(JSON.parse(json.stdout) as object) });
    expect(lines.at(-1)).toMatchObject({ type: 'error', error: { kind: 'http', status: 500, exit_code: 1 } });
    expect(await readFile(await sessionFile(home), 'utf8')).toBe(before);
  });

  it('a usage error is one error line on stdout, exit 2; --json with another format is refused', async () => {
    const model = await models.model('chat-completions');
    const home = await models.home(model);
    const unknown = await runCwChild(
      ['send', '--output-format', 'stream-json', '--bogus', '--prompt', 'x'],
      models.envFor(home),
    );
    expect(unknown.code).toBe(2);
    expect(linesOf(unknown.stdout)).toEqual([expect.objectContaining({ type: 'error' })]);
    const both = await runCwChild(
      ['send', '--json', '--output-format', 'stream-json', '--prompt', 'x'],
      models.envFor(home),
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('`--json` is `--output-format json`');
    const bad = await runCwChild(['send', '--output-format', 'yaml', '--prompt', 'x'], models.envFor(home));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('`--output-format` takes one of text, json, stream-json');
    expect(model.requests).toHaveLength(0);
  });
});

describe('cw send --output-format json', () => {
  it('keeps the --json document and adds the session, the totals and every request hashes and usage', async () => {
    const { model, home } = await threeStepLoop();
    const run = await runCwChild(['send', '--output-format', 'json', '--prompt', 'swap'], models.envFor(home));
    expect(run.code, run.stderr).toBe(0);
    const document = JSON.parse(run.stdout) as {
      reply: { text: string; usage: unknown };
      stopped: string;
      session: string;
      session_id: string;
      usage: unknown;
      sent: unknown;
      steps: { body_sha256: string; body_wire_sha256: string; usage: unknown }[];
    };
    expect(document.stopped).toBe('answered');
    expect(document.session).toBe('default');
    expect(document.session_id).toMatch(/\/default$/);
    // reply.usage stays the last step's; usage sums all three.
    expect(document.reply.usage).toEqual({ input_tokens: 102, output_tokens: 7 });
    expect(document.usage).toEqual({ input_tokens: 303, output_tokens: 21, steps_without_usage: 0 });
    expect(document.steps.map((step) => [step.body_sha256, step.body_wire_sha256])).toEqual(
      model.requests.map((request) => [request.canonicalSha256, request.wireSha256]),
    );
    expect(document.sent).toEqual({
      body_sha256: model.requests[0]?.canonicalSha256,
      body_wire_sha256: model.requests[0]?.wireSha256,
    });
  });
});

describe('Ctrl-C in the middle of a request', () => {
  /** A loop whose first request reads a file and whose second reply starts, then is held open until cw lets go. */
  async function heldSecondReply(args: readonly string[], way: string) {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [READ] } },
      { reply: { text: 'The notes say' }, hold: true },
    );
    const ws = await models.folder('cw-stream-held-');
    await writeFile(join(ws, 'notes.txt'), 'remember the milk\n');
    const home = await models.home(model, { workspace: ws, approval: 'workspace' });
    // The oclif command and the oclif-free entry share the send body; both are held to it.
    const env = models.envFor(home, way === 'oclif' ? { CW_NO_FAST_PATH: '1' } : {});
    const cw = spawnCw(['send', ...args, '--prompt', 'read the notes'], env);
    let stdout = '';
    cw.child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    await waitFor(() => model.requests.length === 2, 10_000, 'the second request');
    return { cw, output: () => stdout };
  }

  const WAYS = ['fast', 'oclif'];

  it.for(WAYS)('%s: stream-json ends with the documented result, stopped interrupted, and exits 130', async (way) => {
    const { cw, output } = await heldSecondReply(['--output-format', 'stream-json'], way);
    await waitFor(() => output().includes('"text-delta"'), 10_000, 'the held reply to start');
    cw.child.kill('SIGINT');
    const exit = await cw.done;
    expect(exit.code, exit.stderr).toBe(130);
    const lines = linesOf(exit.stdout);
    expect(lines.filter((line) => line.type === 'error')).toEqual([]);
    // Only the finished step counts; the reply that was cut off was not saved.
    expect(lines.at(-1)).toEqual({
      type: 'result',
      stopped: 'interrupted',
      session_id: lines[0]?.['session_id'],
      session: 'default',
      steps: 1,
      usage: { input_tokens: 100, output_tokens: 7, steps_without_usage: 0 },
      cost: { usd: null, reason: 'no-published-price' },
      session_cost: null,
      text: '',
      tool_calls: [],
    });
  });

  it.for(WAYS)('%s: --json prints the error document, exit_code 130 and kind interrupted; exits 130', async (way) => {
    const { cw } = await heldSecondReply(['--json'], way);
    cw.child.kill('SIGINT');
    const exit = await cw.done;
    expect(exit.code, exit.stderr).toBe(130);
    expect(JSON.parse(exit.stdout)).toMatchObject({ error: { kind: 'interrupted', exit_code: 130 } });
  });
});

describe('cw send in text mode', () => {
  it('ends the turn with one usage line on stderr when stderr is a terminal, and none when it is not', async () => {
    const { home } = await threeStepLoop();
    // util-linux `script` gives the command a pseudo-terminal, as a person's shell does.
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CW_BIN)} send --approval workspace --prompt swap`;
    const onTerminal = await new Promise<string>((resolve, reject) => {
      execFile('script', ['-qec', command, '/dev/null'], { env: cwEnv(models.envFor(home)) }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      );
    });
    expect(onTerminal).toContain('cw: usage: 303 input tokens, 21 output tokens over 3 requests');
    expect(onTerminal.match(/cw: usage:/g)).toHaveLength(1);

    const { home: piped } = await threeStepLoop();
    const run = await runCwChild(['send', '--approval', 'workspace', '--prompt', 'swap'], models.envFor(piped));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('cw: usage:');
  });
});
