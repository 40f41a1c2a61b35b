// The agent loop end to end (docs/agent-loop.md): the BUILT CLI (run `npm run build` first) runs as a
// child process against a scripted model on 127.0.0.1 that answers each request with the next step
// of a script, in the wire form of each dialect, and checks that every request carries the results
// of the tools it asked for. The workspace is a temp folder set in config. Tests that run a shell
// command under workspace need the sandbox (test/support/require-bubblewrap.ts).
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY, sessionFile } from './support/cw-fixture.js';
import type { FaultDialect } from './support/fault-home.js';
import {
  type ScriptedCall,
  type ScriptedModel,
  type ScriptedStep,
  geminiSignature,
  unanswered,
  useScriptedModels,
} from './support/scripted-model.js';
import { needBubblewrap } from './support/require-bubblewrap.js';
import { runCwChild, spawnCw, waitFor } from './support/spawn-cw.js';
import { validateWireBody } from './support/wire-schemas.js';

const KEY_ENV = 'CW_LOOP_KEY';
const OTHER_SECRET = 'other-secret-7f3a9c1e5b';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

const MATH_BUGGY = 'function add(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add };\n';
const MATH_FIXED = MATH_BUGGY.replace('return a - b', 'return a + b');
const TEST_JS = [
  "const { add } = require('./src/math.js');",
  'if (add(2, 3) !== 5) {',
  "  console.error('add(2, 3) is', add(2, 3));",
  '  process.exit(1);',
  '}',
  "console.log('add ok');",
  '',
].join('\n');
const PROMPT = 'make node test.js pass';
const FINAL = 'Fixed: add now adds, and node test.js passes.';

/** A workspace `base/ws` with src/math.js (buggy) and test.js; `gitRoot` makes it the root of its own repository. */
async function makeWorkspace(gitRoot = false): Promise<{ base: string; ws: string }> {
  const base = await models.folder('cw-loop-');
  const ws = join(base, 'ws');
  await mkdir(join(ws, 'src'), { recursive: true });
  await writeFile(join(ws, 'src', 'math.js'), MATH_BUGGY);
  await writeFile(join(ws, 'test.js'), TEST_JS);
  if (gitRoot) await mkdir(join(ws, '.git'));
  return { base, ws };
}

const mathOf = (ws: string): Promise<string> => readFile(join(ws, 'src', 'math.js'), 'utf8');

/** The stored messages, body_sha256 included. */
async function storedMessages(home: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(await sessionFile(home), 'utf8');
  return (JSON.parse(text) as { messages: Record<string, unknown>[] }).messages;
}

const call = (id: string, name: string, args: unknown): ScriptedCall => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});
const readMath = (id: string): ScriptedCall => call(id, 'read_file', { path: 'src/math.js' });
const editMath = (id: string): ScriptedCall =>
  call(id, 'edit_file', { path: 'src/math.js', old_text: 'return a - b', new_text: 'return a + b' });
const runTest = (id: string, command = 'node test.js'): ScriptedCall => call(id, 'shell', { command });

/** Status lines on stderr: tool starts and tool ends (durations dropped). */
function statusLines(stderr: string): { starts: string[]; ends: string[] } {
  const lines = stderr.split('\n');
  return {
    starts: lines.filter((line) => line.startsWith('cw: ▸ ')),
    ends: lines.filter((line) => /^cw: [✓✗·] /.test(line)).map((line) => line.replace(/, \d+ ms\)$/, ')')),
  };
}

/** Problems the published request schema finds in the whole body. */
function wireErrors(dialect: FaultDialect, body: Record<string, unknown>): string[] {
  return validateWireBody(dialect, body).errors;
}

const occurrences = (text: string, needle: string): number => text.split(needle).length - 1;

/** The four-step fix: read, edit, run the test, answer; each request must carry the previous result. */
function fixScript(dialect: FaultDialect): {
  ids: { read: string; edit: string; shell: string };
  steps: ScriptedStep[];
} {
  const prefix = dialect === 'anthropic-messages' ? 'toolu' : 'call';
  const ids = { read: `${prefix}_read_1`, edit: `${prefix}_edit_2`, shell: `${prefix}_shell_3` };
  const steps: ScriptedStep[] = [
    {
      check: (view) => (view.strings.some((text) => text.includes(PROMPT)) ? [] : ['the prompt is not in the body']),
      reply: { calls: [readMath(ids.read)] },
    },
    {
      carries: [{ id: ids.read, includes: 'return a - b' }],
      reply: { text: 'The sign is wrong.', calls: [editMath(ids.edit)] },
    },
    { carries: [{ id: ids.edit, includes: 'edited src/math.js' }], reply: { calls: [runTest(ids.shell)] } },
    {
      carries: [
        { id: ids.shell, includes: 'add ok' },
        { id: ids.shell, includes: 'exit code 0' },
      ],
      reply: { text: FINAL },
    },
  ];
  return { ids, steps };
}

/**
 * Gemini checks thought signatures within the turn: each request of the loop carries every call the
 * turn made with the signature it came with, on the same call (the scripted model signs each reply's
 * first call), and nothing else was signed.
 */
function expectSignaturesReplayed(model: ScriptedModel, ids: { read: string; edit: string; shell: string }): void {
  const calls = [ids.read, ids.edit, ids.shell];
  for (const [at, request] of model.requests.entries()) {
    const signed = (request.view.body['contents'] as { parts: Record<string, unknown>[] }[])
      .flatMap((content) => content.parts)
      .filter((part) => 'thoughtSignature' in part)
      .map((part) => [(part['functionCall'] as { id: string }).id, part['thoughtSignature']]);
    expect(signed).toEqual(calls.slice(0, at).map((id, step) => [id, geminiSignature(step)]));
  }
}

/** Ollama's thinking goes back on the assistant messages of the loop, which all follow the one prompt. */
function expectThinkingReplayed(model: ScriptedModel): void {
  const last = model.requests.at(-1)?.view.body['messages'] as Record<string, unknown>[];
  const assistants = last.filter((message) => message['role'] === 'assistant');
  expect(assistants).toHaveLength(3);
  for (const message of assistants) expect(message['thinking']).toBe('thinking it over');
}

function expectScriptRan(model: ScriptedModel, requests: number): void {
  expect(model.problems).toEqual([]);
  expect(model.requests).toHaveLength(requests);
}

describe('the agent loop fixes a bug, on every dialect', () => {
  const dialects: FaultDialect[] = [
    'chat-completions',
    'anthropic-messages',
    'openai-responses',
    'gemini-generate-content',
    'ollama-chat',
  ];
  for (const [at, dialect] of dialects.entries()) {
    it(`${dialect}: read_file, edit_file, shell, answer — each request carries the last result and is the stored hash`, async (context) => {
      needBubblewrap(context);
      const { ids, steps } = fixScript(dialect);
      const model = await models.model(dialect, ...steps);
      const { ws } = await makeWorkspace(at === 1);
      const home = await models.home(model, { workspace: ws, approval: 'workspace' });

      const run = await runCwChild(['send', '--prompt', PROMPT], models.envFor(home));
      expect(run.code, run.stderr).toBe(0);
      expectScriptRan(model, 4);
      expect(await mathOf(ws)).toBe(MATH_FIXED);
      expect(run.stdout).toContain(FINAL);

      const { starts, ends } = statusLines(run.stderr);
      expect(starts).toEqual([
        'cw: ▸ read_file src/math.js',
        'cw: ▸ edit_file src/math.js',
        'cw: ▸ shell node test.js',
      ]);
      expect(ends).toEqual([
        'cw: ✓ read_file src/math.js (ok)',
        'cw: ✓ edit_file src/math.js (ok)',
        'cw: ✓ shell node test.js (ok)',
      ]);

      const messages = await storedMessages(home);
      expect(messages.map((message) => message['role'])).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'tool',
        'assistant',
        'tool',
        'assistant',
      ]);
      // The turn context (on by default) is stored beside the prompt, and every step of the loop
      // replays it in front of the prompt, byte for byte: the history prefix does not move.
      expect(messages[0]).toEqual({
        role: 'user',
        content: PROMPT,
        turn_context: expect.stringMatching(/^<turn-context>\n[\s\S]*\n<\/turn-context>\n\n$/),
      });
      const firstMessage = JSON.stringify(`${String(messages[0]?.['turn_context'])}${PROMPT}`).slice(1, -1);
      for (const request of model.requests) expect(request.received.body).toContain(firstMessage);
      const calls = [ids.read, ids.edit, ids.shell];
      const names = ['read_file', 'edit_file', 'shell'];
      for (const [step, id] of calls.entries()) {
        const assistant = messages[1 + step * 2] as { tool_calls?: { id: string; name: string }[] };
        expect(assistant.tool_calls?.map((stored) => [stored.id, stored.name])).toEqual([[id, names[step]]]);
        expect(messages[2 + step * 2]).toMatchObject({
          role: 'tool',
          tool_call_id: id,
          name: names[step],
          status: 'ok',
        });
      }
      expect(messages[3]).toMatchObject({ content: 'The sign is wrong.' });
      expect(messages[7]).toMatchObject({ role: 'assistant', content: FINAL });
      expect(messages[7]).not.toHaveProperty('tool_calls');
      expect(String(messages[2]?.['content'])).toContain('return a - b');
      expect(String(messages[6]?.['content'])).toContain('exit code 0');

      // Every request the model received is, canonicalized independently, the one the stored reply names.
      const stored = messages
        .filter((message) => message['role'] === 'assistant')
        .map((message) => message['body_sha256']);
      expect(stored).toEqual(model.requests.map((request) => request.canonicalSha256));
      for (const request of model.requests) {
        expect(wireErrors(dialect, request.view.body)).toEqual([]);
        expect(unanswered(request.view)).toEqual({ calls: [], orphans: [] });
      }
      if (dialect === 'gemini-generate-content') expectSignaturesReplayed(model, ids);
      if (dialect === 'ollama-chat') expectThinkingReplayed(model);
    });
  }

  it('--json: one document whose four steps carry the request hashes and the tool-call statuses', async (context) => {
    needBubblewrap(context);
    const { ids, steps } = fixScript('chat-completions');
    const model = await models.model('chat-completions', ...steps);
    const { ws } = await makeWorkspace();
    const home = await models.home(model, { workspace: ws, approval: 'workspace' });

    const run = await runCwChild(['send', '--json', '--prompt', PROMPT], models.envFor(home));
    expect(run.code, run.stderr).toBe(0);
    expectScriptRan(model, 4);
    const document = JSON.parse(run.stdout) as {
      reply: { text: string; tool_calls: unknown[] };
      stopped: string;
      sent: { body_sha256: string; body_wire_sha256: string };
      steps: {
        input: string;
        body_sha256: string;
        tool_calls: { id: string; name: string; status: string; result_bytes: number }[];
      }[];
    };
    expect(document.stopped).toBe('answered');
    expect(document.reply).toMatchObject({ text: FINAL, tool_calls: [] });
    expect(document.steps).toHaveLength(4);
    expect(document.steps.map((step) => step.body_sha256)).toEqual(
      model.requests.map((request) => request.canonicalSha256),
    );
    expect(document.steps.map((step) => step.input)).toEqual([
      'prompt',
      'continuation',
      'continuation',
      'continuation',
    ]);
    expect(
      document.steps.map((step) => step.tool_calls.map((record) => [record.id, record.name, record.status])),
    ).toEqual([[[ids.read, 'read_file', 'ok']], [[ids.edit, 'edit_file', 'ok']], [[ids.shell, 'shell', 'ok']], []]);
    expect(document.sent).toEqual({
      body_sha256: model.requests[0]?.canonicalSha256,
      body_wire_sha256: model.requests[0]?.wireSha256,
    });
    const stored = (await storedMessages(home))
      .filter((message) => message['role'] === 'assistant')
      .map((message) => message['body_sha256']);
    expect(stored).toEqual(document.steps.map((step) => step.body_sha256));
    expect(await mathOf(ws)).toBe(MATH_FIXED);
  });
});

describe('approval postures', () => {
  for (const flags of [['--approval', 'never'], ['--no-tool-runs']]) {
    it(`${flags.join(' ')}: one request, the call is stored unrun, and the next prompt answers it "not executed"`, async () => {
      const model = await models.model('chat-completions', { reply: { calls: [editMath('call_e')] } });
      const { ws } = await makeWorkspace();
      const home = await models.home(model, { workspace: ws, approval: 'workspace' });
      const env = models.envFor(home);

      const run = await runCwChild(['send', ...flags, '--prompt', 'fix it'], env);
      expect(run.code, run.stderr).toBe(0);
      expectScriptRan(model, 1);
      expect(run.stderr).toContain('the model asked for 1 tool call(s); they were not run');
      expect(statusLines(run.stderr).starts).toEqual([]);
      const messages = await storedMessages(home);
      expect(messages.map((message) => message['role'])).toEqual(['user', 'assistant']);
      expect(messages[1]).toMatchObject({ tool_calls: [{ id: 'call_e', name: 'edit_file' }] });
      expect(await mathOf(ws)).toBe(MATH_BUGGY);

      model.andThen({ carries: [{ id: 'call_e', includes: 'Not executed' }], reply: { text: 'ok, left alone' } });
      const next = await runCwChild(['send', '--prompt', 'never mind'], env);
      expect(next.code, next.stderr).toBe(0);
      expectScriptRan(model, 2);
      expect(unanswered(model.requests[1]!.view)).toEqual({ calls: [], orphans: [] });
      expect(await mathOf(ws)).toBe(MATH_BUGGY);
    });
  }

  it('read-only: read_file runs; edit_file and shell are refused with a result the model reads; the file is unchanged', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [readMath('call_r'), editMath('call_e'), runTest('call_s')] } },
      {
        carries: [
          { id: 'call_r', includes: 'return a - b' },
          { id: 'call_e', includes: 'Refused' },
          { id: 'call_s', includes: 'Refused' },
        ],
        reply: { text: 'I may only read here.' },
      },
    );
    const { ws } = await makeWorkspace();
    // The flag wins over the configured posture.
    const home = await models.home(model, { workspace: ws, approval: 'workspace' });
    const run = await runCwChild(['send', '--approval', 'read-only', '--prompt', PROMPT], models.envFor(home));
    expect(run.code, run.stderr).toBe(0);
    expectScriptRan(model, 2);
    expect(model.requests[1]?.view.raw).toContain('Refused');
    expect(await mathOf(ws)).toBe(MATH_BUGGY);
    const { starts, ends } = statusLines(run.stderr);
    expect(starts).toEqual(['cw: ▸ read_file src/math.js']);
    expect(ends).toEqual([
      'cw: ✓ read_file src/math.js (ok)',
      'cw: · edit_file src/math.js (refused)',
      'cw: · shell node test.js (refused)',
    ]);
    const tools = (await storedMessages(home)).filter((message) => message['role'] === 'tool');
    expect(tools.map((message) => [message['tool_call_id'], message['status']])).toEqual([
      ['call_r', 'ok'],
      ['call_e', 'refused'],
      ['call_s', 'refused'],
    ]);
  });

  it('workspace (flag over a read-only config): edit_file runs', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [editMath('call_e')] } },
      { carries: [{ id: 'call_e', includes: 'edited src/math.js' }], reply: { text: 'done' } },
    );
    const { ws } = await makeWorkspace();
    const home = await models.home(model, { workspace: ws, approval: 'read-only' });
    const run = await runCwChild(['send', '--approval', 'workspace', '--prompt', PROMPT], models.envFor(home));
    expect(run.code, run.stderr).toBe(0);
    expectScriptRan(model, 2);
    expect(await mathOf(ws)).toBe(MATH_FIXED);
  });

  it('ask without a terminal acts as read-only, and stderr says so once', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [readMath('call_r'), editMath('call_e'), runTest('call_s')] } },
      {
        carries: [
          { id: 'call_r', includes: 'return a - b' },
          { id: 'call_e', includes: 'Refused' },
          { id: 'call_s', includes: 'Refused' },
          { id: 'call_e', includes: 'no one to ask' },
        ],
        reply: { text: 'nobody answered' },
      },
    );
    const { ws } = await makeWorkspace();
    const home = await models.home(model, { workspace: ws, approval: 'ask' });
    // The child's stdin is a pipe, not a terminal.
    const run = await runCwChild(['send', '--prompt', PROMPT], models.envFor(home));
    expect(run.code, run.stderr).toBe(0);
    expectScriptRan(model, 2);
    expect(occurrences(run.stderr, 'no terminal to ask on')).toBe(1);
    expect(await mathOf(ws)).toBe(MATH_BUGGY);
  });

  it('an allow rule shell(node test.js) runs that command under read-only, but not a compound command', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [runTest('call_plain'), runTest('call_compound', 'node test.js && echo x')] } },
      {
        carries: [
          { id: 'call_plain', includes: 'exit code 1' },
          { id: 'call_compound', includes: 'Refused' },
        ],
        check: (view) => {
          const plain = view.sequence.find((item) => item.kind === 'result' && item.id === 'call_plain');
          return plain?.kind === 'result' && plain.content.includes('Refused')
            ? ['the allowed command was refused']
            : [];
        },
        reply: { text: 'the test fails' },
      },
    );
    const { ws } = await makeWorkspace();
    const home = await models.home(model, {
      workspace: ws,
      approval: 'read-only',
      permissions: { allow: ['shell(node test.js)'], deny: [] },
    });
    const run = await runCwChild(['send', '--prompt', PROMPT], models.envFor(home));
    expect(run.code, run.stderr).toBe(0);
    expectScriptRan(model, 2);
    const tools = (await storedMessages(home)).filter((message) => message['role'] === 'tool');
    expect(tools.map((message) => [message['tool_call_id'], message['status']])).toEqual([
      ['call_plain', 'error'],
      ['call_compound', 'refused'],
    ]);
    expect(statusLines(run.stderr).starts).toEqual(['cw: ▸ shell node test.js']);
  });

  it('a deny rule edit_file refuses it under workspace', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [editMath('call_e')] } },
      {
        carries: [
          { id: 'call_e', includes: 'Refused' },
          { id: 'call_e', includes: 'a deny rule' },
        ],
        reply: { text: 'not allowed' },
      },
    );
    const { ws } = await makeWorkspace();
    const home = await models.home(model, {
      workspace: ws,
      approval: 'workspace',
      permissions: { allow: ['edit_file'], deny: ['edit_file'] },
    });
    const run = await runCwChild(['send', '--prompt', PROMPT], models.envFor(home));
    expect(run.code, run.stderr).toBe(0);
    expectScriptRan(model, 2);
    expect(await mathOf(ws)).toBe(MATH_BUGGY);
    const tools = (await storedMessages(home)).filter((message) => message['role'] === 'tool');
    expect(tools.map((message) => message['status'])).toEqual(['refused']);
  });
});

describe('confinement and safety through the loop', () => {
  it('paths out of the workspace, key variables, unknown tools and bad arguments become results; the loop goes on', async (context) => {
    needBubblewrap(context);
    const { base, ws } = await makeWorkspace();
    await writeFile(join(base, 'outside.txt'), 'OUTSIDE-CONTENT');
    await mkdir(join(base, 'outdir'));
    await writeFile(join(base, 'outdir', 'secret.txt'), 'OUTDIR-CONTENT');
    await symlink(join(base, 'outdir'), join(ws, 'link'));
    const leaks = ['OUTSIDE-CONTENT', 'OUTDIR-CONTENT'];
    const model = await models.model(
      'chat-completions',
      {
        reply: {
          calls: [
            call('call_up', 'read_file', { path: '../outside.txt' }),
            call('call_abs', 'read_file', { path: join(base, 'outside.txt') }),
            call('call_link', 'read_file', { path: 'link/secret.txt' }),
          ],
        },
      },
      {
        carries: [
          { id: 'call_up', includes: 'outside the workspace' },
          { id: 'call_abs', includes: 'outside the workspace' },
          { id: 'call_link', includes: 'outside the workspace' },
        ],
        check: (view) => leaks.filter((leak) => view.raw.includes(leak)).map((leak) => `${leak} reached the model`),
        reply: {
          calls: [call('call_unknown', 'delete_everything', {}), call('call_bad', 'read_file', '{"path": src/math.js')],
        },
      },
      {
        carries: [
          { id: 'call_unknown', includes: 'Unknown tool "delete_everything"' },
          { id: 'call_unknown', includes: 'read_file' },
          { id: 'call_bad', includes: 'not valid JSON' },
        ],
        reply: { calls: [call('call_env', 'shell', { command: 'echo "$CW_LOOP_KEY" "$OTHER_API_KEY"' })] },
      },
      {
        carries: [{ id: 'call_env', includes: 'exit code 0' }],
        check: (view) =>
          [FAKE_KEY, OTHER_SECRET].filter((secret) => view.raw.includes(secret)).map(() => 'a key reached the model'),
        reply: { text: 'all done' },
      },
    );
    const home = await models.home(model, { workspace: ws, approval: 'workspace' });
    const run = await runCwChild(
      ['send', '--prompt', 'poke around'],
      models.envFor(home, { OTHER_API_KEY: OTHER_SECRET }),
    );
    expect(run.code, run.stderr).toBe(0);
    expectScriptRan(model, 4);
    expect(run.stdout).toContain('all done');

    const session = await readFile(await sessionFile(home), 'utf8');
    for (const secret of [FAKE_KEY, OTHER_SECRET, ...leaks]) expect(session).not.toContain(secret);
    const tools = (await storedMessages(home)).filter((message) => message['role'] === 'tool');
    expect(tools.map((message) => [message['tool_call_id'], message['status']])).toEqual([
      ['call_up', 'error'],
      ['call_abs', 'error'],
      ['call_link', 'error'],
      ['call_unknown', 'invalid'],
      ['call_bad', 'invalid'],
      ['call_env', 'ok'],
    ]);
    // Results never name the machine's folders.
    for (const message of tools) expect(String(message['content'])).not.toContain(base);
  });
});

describe('the step limit and continuation', () => {
  it('--max-steps 1 stops after the tools; preview describes the continuation exactly, and cw send sends it', async () => {
    const model = await models.model('anthropic-messages', { reply: { calls: [readMath('toolu_1')] } });
    const { ws } = await makeWorkspace();
    const home = await models.home(model, { workspace: ws, approval: 'workspace' });
    const env = models.envFor(home);

    const first = await runCwChild(['send', '--max-steps', '1', '--prompt', 'keep reading'], env);
    expect(first.code, first.stderr).toBe(0);
    expectScriptRan(model, 1);
    expect(first.stderr).toContain('stopped after 1 steps (max_steps)');
    const stopped = await storedMessages(home);
    expect(stopped.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'toolu_1', status: 'ok' });

    const preview = await runCwChild(['preview-request', 'json'], env);
    expect(preview.code, preview.stderr).toBe(0);
    const manifest = JSON.parse(preview.stdout) as {
      session: { lane_kind: string; hypothetical_prompt_supplied: boolean };
      body: { exact?: { body_sha256: string; body_wire_sha256: string } };
    };
    expect(manifest.session.lane_kind).toBe('agent-loop-continuation');
    expect(manifest.session.hypothetical_prompt_supplied).toBe(false);
    expect(manifest.body.exact?.body_sha256).toMatch(/^[0-9a-f]{64}$/);

    model.andThen(
      { carries: [{ id: 'toolu_1', includes: 'return a - b' }], reply: { calls: [readMath('toolu_2')] } },
      { carries: [{ id: 'toolu_2', includes: 'return a - b' }], reply: { text: 'read it twice' } },
    );
    const next = await runCwChild(['send'], env);
    expect(next.code, next.stderr).toBe(0);
    expectScriptRan(model, 3);
    expect(next.stdout).toContain('read it twice');
    expect(model.requests[1]?.canonicalSha256).toBe(manifest.body.exact?.body_sha256);
    expect(model.requests[1]?.wireSha256).toBe(manifest.body.exact?.body_wire_sha256);
    const messages = await storedMessages(home);
    expect(messages.map((message) => message['role'])).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(messages[3]?.['body_sha256']).toBe(manifest.body.exact?.body_sha256);
  });
});

interface Process {
  pid: number;
  ppid: number;
  pgid: number;
  stat: string;
  args: string;
}

function processes(): Process[] {
  return execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({
      pid: Number(match[1]),
      ppid: Number(match[2]),
      pgid: Number(match[3]),
      stat: match[4] ?? '',
      args: match[5] ?? '',
    }));
}

const alive = (group: number): Process[] =>
  processes().filter((entry) => entry.pgid === group && !entry.stat.startsWith('Z'));

describe('Ctrl-C while a tool runs', () => {
  it('exits 130 soon, kills the command group, answers the call, and the next send goes on', async (context) => {
    needBubblewrap(context);
    const model = await models.model('chat-completions', { reply: { calls: [runTest('call_sleep', 'sleep 20')] } });
    const { ws } = await makeWorkspace();
    const home = await models.home(model, { workspace: ws, approval: 'workspace' });
    const env = models.envFor(home);

    const cw = spawnCw(['send', '--prompt', 'wait a while'], env);
    await waitFor(() => cw.stderr().includes('cw: ▸ shell sleep 20'), 10_000, 'the shell start line');
    // The command runs in its own process group, led by the process cw started.
    let group = 0;
    await waitFor(
      () => {
        const leader = processes().find((entry) => entry.ppid === cw.child.pid && entry.pgid === entry.pid);
        group = leader?.pid ?? 0;
        return group !== 0 && alive(group).some((entry) => entry.args.includes('sleep 20'));
      },
      5_000,
      'sleep to run',
    );
    const interruptedAt = Date.now();
    cw.child.kill('SIGINT');
    const exit = await cw.done;
    expect(exit.code, exit.stderr).toBe(130);
    expect(Date.now() - interruptedAt).toBeLessThan(5_000);
    expect(exit.stderr).toContain('interrupted');
    await waitFor(() => alive(group).length === 0, 2_000, 'the command group to be gone').catch(() => undefined);
    expect(alive(group)).toEqual([]);
    expectScriptRan(model, 1);

    const messages = await storedMessages(home);
    expect(messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_sleep' });
    // Stopped by Ctrl-C, not failed: stored as cancelled.
    expect(messages.at(-1)?.['status']).toBe('cancelled');

    model.andThen({
      check: (view) => {
        const { calls, orphans } = unanswered(view);
        return [...calls.map((id) => `call ${id} unanswered`), ...orphans.map((id) => `result ${id} without a call`)];
      },
      carries: [{ id: 'call_sleep', includes: '' }],
      reply: { text: 'going on' },
    });
    const next = await runCwChild(['send', '--prompt', 'go on'], env);
    expect(next.code, next.stderr).toBe(0);
    expectScriptRan(model, 2);
    expect(next.stdout).toContain('going on');
  });
});
