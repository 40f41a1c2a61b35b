// A goal with a token budget, end to end: the BUILT CLI (run `npm run build` first) runs as a child
// process against a scripted model on 127.0.0.1. `cw goal set` writes the session's goal file, every
// completed request adds the tokens the provider reported, and once the budget is used up preview
// reports goal-token-budget-exhausted and cw send stops before dispatch. An unreadable or locked goal
// file is goal-state-not-snapshottable. The cw home is byte-identical after every preview.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY, sessionFile } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { type ScriptedCall, type ScriptedModel, useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_GOAL_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

const readNotes: ScriptedCall = { id: 'call_1', name: 'read_file', arguments: JSON.stringify({ path: 'notes.txt' }) };

type Section = 'route' | 'tools' | 'body';
const SECTIONS: readonly Section[] = ['route', 'tools', 'body'];

interface Manifest {
  readonly session: Record<string, unknown>;
  readonly route: { unavailable?: { reason: string; detail: string | null }; exact?: Record<string, unknown> };
  readonly tools: { unavailable?: { reason: string; detail: string | null }; exact?: Record<string, unknown> };
  readonly body: { unavailable?: { reason: string; detail: string | null }; exact?: Record<string, unknown> };
}

/** A JSON preview as a child process; the home must be byte-identical afterwards. */
async function preview(home: string, env: Record<string, string>, prompt?: string): Promise<Manifest> {
  const before = await homeBytes(home);
  const run = await runCwChild(['preview-request', 'json', ...(prompt === undefined ? [] : ['--prompt', prompt])], env);
  expect(run.code, run.stderr).toBe(0);
  expect(await homeBytes(home)).toEqual(before);
  return JSON.parse(run.stdout) as Manifest;
}

function reasons(manifest: Manifest): (string | null)[] {
  return SECTIONS.map((section) => manifest[section].unavailable?.reason ?? null);
}

async function workspace(): Promise<string> {
  const ws = await models.folder('cw-goal-ws-');
  await writeFile(join(ws, 'notes.txt'), 'the notes\n');
  return ws;
}

async function goalJson(env: Record<string, string>): Promise<Record<string, unknown> | null> {
  const run = await runCwChild(['goal', 'show', '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { goal: Record<string, unknown> | null }).goal;
}

const sessionText = async (home: string): Promise<string> => readFile(await sessionFile(home), 'utf8');

/** A home on `model` with a workspace the loop may read in. */
async function homeOn(model: ScriptedModel, config: Record<string, unknown> = {}): Promise<string> {
  return models.home(model, { workspace: await workspace(), approval: 'workspace', ...config });
}

describe('cw goal: a token budget that stops the session', () => {
  it('counts every step of the loop; an exhausted budget stops preview and send; raising it lets both go on', async () => {
    // The scripted model reports 100 + n input and 7 output tokens for its n-th request (0-based).
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [readNotes] } },
      { carries: [{ id: 'call_1', includes: 'the notes' }], reply: { text: 'read them' } },
    );
    const home = await homeOn(model);
    const env = models.envFor(home);

    const set = await runCwChild(['goal', 'set', 'summarise the notes', '--token-budget', '200'], env);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('token budget 200 (0 used, 200 left)');
    expect(reasons(await preview(home, env, 'read the notes'))).toEqual([null, null, null]);

    const first = await runCwChild(['send', '--prompt', 'read the notes'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(model.requests).toHaveLength(2);
    // Both requests of the loop count: 107 + 108.
    expect(await goalJson(env)).toEqual({
      text: 'summarise the notes',
      token_budget: 200,
      tokens_used: 215,
      tokens_left: 0,
      state: 'budget-exhausted',
    });

    // The goal gate comes before everything, the missing prompt included.
    for (const prompt of ['go on', undefined]) {
      const manifest = await preview(home, env, prompt);
      expect(reasons(manifest)).toEqual(Array(3).fill('goal-token-budget-exhausted'));
      for (const section of SECTIONS) expect(Object.keys(manifest[section])).toEqual(['unavailable']);
    }
    const stored = await sessionText(home);
    const refused = await runCwChild(['send', '--prompt', 'go on'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('goal-token-budget-exhausted');
    expect(refused.stderr).toContain('cw goal set --token-budget');
    expect(refused.stderr).toContain('the request was not sent');
    expect(model.requests).toHaveLength(2);
    expect(await sessionText(home)).toBe(stored);

    // Raising the budget keeps the goal and its usage, and the session goes on.
    const raised = await runCwChild(['goal', 'set', '--token-budget', '1000'], env);
    expect(raised.code, raised.stderr).toBe(0);
    expect(raised.stdout).toContain('token budget 1000 (215 used, 785 left)');
    expect(reasons(await preview(home, env, 'go on'))).toEqual([null, null, null]);
    model.andThen({ reply: { text: 'going on' } });
    const again = await runCwChild(['send', '--prompt', 'go on'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('going on');
    expect((await goalJson(env))?.['tokens_used']).toBe(215 + 109);
    expect(model.problems).toEqual([]);
  });

  it('a budget used up mid-loop stops before the next step; the session stays valid and continues later', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [readNotes] } },
      { carries: [{ id: 'call_1', includes: 'the notes' }], reply: { text: 'done' } },
    );
    const home = await homeOn(model);
    const env = models.envFor(home);
    expect((await runCwChild(['goal', 'set', 'read', '--token-budget', '100'], env)).code).toBe(0);

    const run = await runCwChild(['send', '--prompt', 'read the notes'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('goal-token-budget-exhausted');
    expect(model.requests).toHaveLength(1);
    const messages = (JSON.parse(await sessionText(home)) as { messages: { role: string }[] }).messages;
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    // The stopped loop's continuation is what the budget blocks.
    expect(reasons(await preview(home, env))).toEqual(Array(3).fill('goal-token-budget-exhausted'));

    expect((await runCwChild(['goal', 'set', '--token-budget', '500'], env)).code).toBe(0);
    const continued = await runCwChild(['send'], env);
    expect(continued.code, continued.stderr).toBe(0);
    expect(continued.stdout).toContain('done');
    expect(model.requests).toHaveLength(2);
    expect((await goalJson(env))?.['tokens_used']).toBe(107 + 108);
    expect(model.problems).toEqual([]);
  });

  it('a goal without a budget never stops a turn but still counts; a new text starts from 0; clear removes it', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'ok' } });
    const home = await homeOn(model);
    const env = models.envFor(home);
    expect((await runCwChild(['goal', 'set', 'explore'], env)).code).toBe(0);
    expect((await runCwChild(['send', '--prompt', 'hello'], env)).code).toBe(0);
    expect(await goalJson(env)).toMatchObject({
      token_budget: null,
      tokens_used: 107,
      tokens_left: null,
      state: 'active',
    });
    expect((await runCwChild(['goal', 'set', 'something else', '--token-budget', '5'], env)).code).toBe(0);
    expect(await goalJson(env)).toMatchObject({ text: 'something else', tokens_used: 0, state: 'active' });
    const cleared = await runCwChild(['goal', 'clear'], env);
    expect(cleared.stdout).toContain('Cleared the goal of session default.');
    expect(await goalJson(env)).toBeNull();
    const human = await runCwChild(['goal', 'show'], env);
    expect(human.stdout).toBe('No goal is set for session default.\n');
  });

  it('bad input is a one-line error and writes nothing', async () => {
    const model = await models.model('chat-completions');
    const home = await homeOn(model);
    const env = models.envFor(home);
    const before = await homeBytes(home);
    for (const argv of [
      ['goal', 'set'],
      ['goal', 'set', '--token-budget', '0'],
      ['goal', 'set', '   '],
      ['goal', 'set', '--token-budget', '100'],
    ]) {
      const run = await runCwChild(argv, env);
      expect(run.code, argv.join(' ')).not.toBe(0);
      expect(run.stderr.trim().split('\n').length, run.stderr).toBeLessThanOrEqual(2);
    }
    expect(await homeBytes(home)).toEqual(before);
  });
});

describe('goal-state-not-snapshottable', () => {
  it('an unreadable goal file comes first of all, even before MCP and the missing prompt; send refuses it', async () => {
    const model = await models.model('chat-completions');
    // An enabled MCP server without a snapshot would otherwise take tools and body.
    const home = await homeOn(model, { mcpServers: { files: { command: 'node', args: ['server.js'] } } });
    const env = models.envFor(home);
    const goalFile = (await sessionFile(home)).replace(/\.json$/, '.goal.json');
    await mkdir(dirname(goalFile), { recursive: true });
    await writeFile(goalFile, '{"version": 1, "text": "half written');
    for (const prompt of ['hello', undefined]) {
      expect(reasons(await preview(home, env, prompt))).toEqual(Array(3).fill('goal-state-not-snapshottable'));
    }
    const before = await homeBytes(home);
    const send = await runCwChild(['send', '--prompt', 'hello'], env);
    expect(send.code).toBe(1);
    expect(send.stderr).toContain('goal-state-not-snapshottable');
    expect(model.requests).toHaveLength(0);
    expect(await homeBytes(home)).toEqual(before);
    const show = await runCwChild(['goal', 'show'], env);
    expect(show.code).toBe(1);
    expect(show.stderr).toBe('cw: the goal of session default is not valid JSON; cw goal clear removes it\n');

    // Clearing it makes the session previewable again (MCP's own reason shows once the goal is gone).
    expect((await runCwChild(['goal', 'clear'], env)).code).toBe(0);
    expect(reasons(await preview(home, env, 'hello'))).toEqual([
      null,
      'mcp-state-not-snapshottable',
      'mcp-state-not-snapshottable',
    ]);
  });

  it('a goal file another process holds locked is not snapshottable; preview does not wait or touch the lock', async () => {
    const model = await models.model('chat-completions');
    const home = await homeOn(model);
    const env = models.envFor(home);
    expect((await runCwChild(['goal', 'set', 'locked', '--token-budget', '100'], env)).code).toBe(0);
    // The lock as cw takes it: a folder holding its owner, here this live test process.
    const lock = `${(await sessionFile(home)).replace(/\.json$/, '.goal.json')}.lock`;
    await mkdir(lock);
    await writeFile(join(lock, 'owner.json'), JSON.stringify({ pid: process.pid, startTime: null }));
    for (const prompt of ['hello', undefined]) {
      expect(reasons(await preview(home, env, prompt))).toEqual(Array(3).fill('goal-state-not-snapshottable'));
    }
    // cw send waits out a short update; a lock that stays is not snapshottable there either, and
    // nothing is sent or saved.
    const before = await homeBytes(home);
    const send = await runCwChild(['send', '--prompt', 'hello'], env);
    expect(send.code).toBe(1);
    expect(send.stderr).toContain('goal-state-not-snapshottable');
    expect(model.requests).toHaveLength(0);
    expect(await homeBytes(home)).toEqual(before);
  }, 60_000);
});
