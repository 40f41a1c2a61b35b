// Sessions kept per workspace, end to end on the BUILT CLI (run `npm run build` first) against a
// scripted model on 127.0.0.1: cw send -s/-n/-c pick the session, cw sessions lists, shows, renames
// and removes them, a session in one workspace is not another's, selecting never sends a turn, and
// a corrupt session file is moved aside under a name the message gives.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY, REPO_ROOT, onlyWorkspaceFolder, sessionFile } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild, sessionMessages } from './support/spawn-cw.js';

const KEY_ENV = 'CW_SESSIONS_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

interface Listed {
  readonly name: string;
  readonly workspace: string | null;
  readonly this_workspace: boolean;
  readonly active: boolean;
  readonly turns: number;
  readonly route: string | null;
  readonly corrupt: boolean;
}

async function listed(env: Record<string, string>, ...flags: string[]): Promise<Listed[]> {
  const run = await runCwChild(['sessions', '--json', ...flags], env);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { sessions: Listed[] }).sessions;
}

async function sessionOfPreview(env: Record<string, string>, args: readonly string[]): Promise<[string, number]> {
  const run = await runCwChild(['preview-request', 'json', ...args], env);
  expect(run.code, run.stderr).toBe(0);
  const session = (JSON.parse(run.stdout) as { session: { session_name: string; stored_message_count: number } })
    .session;
  return [session.session_name, session.stored_message_count];
}

/** A saved session as role and text pairs. */
async function conversation(home: string, name = 'default'): Promise<[unknown, unknown][]> {
  return (await sessionMessages(home, name)).map((message) => [message['role'], message['content']]);
}

const replies = (count: number) => Array.from({ length: count }, (_, index) => ({ reply: { text: `r${index}` } }));

describe('sessions per workspace', () => {
  it('-n starts s1, -c continues the latest, -s picks one; cw sessions lists them with turns and route', async () => {
    const model = await models.model('chat-completions', ...replies(4));
    const home = await models.home(model, { approval: 'never' });
    const env = models.envFor(home);

    expect((await runCwChild(['send', '--prompt', 'first'], env)).code).toBe(0);
    const fresh = await runCwChild(['send', '-n', '--prompt', 'second'], env);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).toContain('cw: new session s1');
    expect(await conversation(home, 's1')).toEqual([
      ['user', 'second'],
      ['assistant', 'r1'],
    ]);
    // -c: the session used last (s1); -s default: the first one again.
    expect((await runCwChild(['send', '-c', '--prompt', 'third'], env)).code).toBe(0);
    expect(await sessionMessages(home, 's1')).toHaveLength(4);
    expect((await runCwChild(['send', '-s', 'default', '--prompt', 'fourth'], env)).code).toBe(0);
    expect(await sessionMessages(home, 'default')).toHaveLength(4);
    // The second request of s1 carried s1's history, not default's.
    expect(model.requests[2]?.received.body).toContain('second');
    expect(model.requests[2]?.received.body).not.toContain('first');

    const sessions = await listed(env);
    expect(sessions.map((session) => [session.name, session.turns, session.route, session.active])).toEqual([
      ['default', 2, 'fault', true],
      ['s1', 2, 'fault', false],
    ]);
    const table = await runCwChild(['sessions'], env);
    expect(table.stdout).toMatch(/^ +NAME +WORKSPACE +TURNS +LAST USED +ROUTE$/m);
    expect(table.stdout).toMatch(/^\* +default +\S+ +2 +\d{4}-\d\d-\d\d \d\d:\d\d +fault$/m);
  });

  it('selecting never sends: preview -n shows an empty history, -c and -s the chosen one, and writes nothing', async () => {
    const model = await models.model('chat-completions', ...replies(2));
    const home = await models.home(model, { approval: 'never' });
    const env = models.envFor(home);
    expect((await runCwChild(['send', '--prompt', 'a'], env)).code).toBe(0);
    expect((await runCwChild(['send', '-s', 'other', '--prompt', 'b'], env)).code).toBe(0);
    const before = await homeBytes(home);
    expect(await sessionOfPreview(env, ['-n', '--prompt', 'x'])).toEqual(['s1', 0]);
    expect(await sessionOfPreview(env, ['-n'])).toEqual(['s1', 0]);
    expect(await sessionOfPreview(env, ['-c', '--prompt', 'x'])).toEqual(['other', 2]);
    expect(await sessionOfPreview(env, ['-s', 'default'])).toEqual(['default', 2]);
    expect(await sessionOfPreview(env, ['-s', 'nothing-yet'])).toEqual(['nothing-yet', 0]);
    // cw send -n without a prompt selects nothing and sends nothing.
    const bare = await runCwChild(['send', '-n'], env);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('`--prompt <text>` is required');
    for (const argv of [['sessions'], ['sessions', '--all'], ['sessions', 'show', 'default']])
      expect((await runCwChild(argv, env)).code).toBe(0);
    expect(model.requests).toHaveLength(2);
    expect(await homeBytes(home)).toEqual(before);
  });

  it('a session belongs to its workspace: another folder sees none of it, --all lists both without a path', async () => {
    const model = await models.model('chat-completions', ...replies(2));
    const home = await models.home(model, { approval: 'never' });
    const env = models.envFor(home);
    const elsewhere = await models.folder('cw-other-project-');
    await mkdir(join(elsewhere, '.git'));
    expect((await runCwChild(['send', '--prompt', 'in the repo'], env)).code).toBe(0);
    const other = await runCwChild(['send', '--prompt', 'in the other project'], env, { cwd: elsewhere });
    expect(other.code, other.stderr).toBe(0);
    // The other project's first turn did not carry the repository's history.
    expect(model.requests[1]?.received.body).not.toContain('in the repo');
    const here = await listed(env);
    expect(here.map((session) => session.name)).toEqual(['default']);
    const all = await listed(env, '--all');
    expect(all).toHaveLength(2);
    expect(new Set(all.map((session) => session.workspace)).size).toBe(2);
    for (const session of all) {
      expect(session.workspace).toMatch(/^[A-Za-z0-9_-]+-[0-9a-f]{10}$/);
      expect(session.this_workspace).toBe(session.workspace === here[0]?.workspace);
    }
    const printed = (await runCwChild(['sessions', '--all'], env)).stdout;
    for (const path of [REPO_ROOT, elsewhere, home]) expect(printed).not.toContain(path);
  });

  it('show lists roles, sizes and tool calls; text only with --text', async () => {
    const model = await models.model('chat-completions', {
      reply: { calls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"x"}' }] },
    });
    const home = await models.home(model, { approval: 'never' });
    const env = models.envFor(home);
    expect((await runCwChild(['send', '--prompt', 'private words'], env)).code).toBe(0);
    const shown = await runCwChild(['sessions', 'show', 'default', '--json'], env);
    expect(shown.code, shown.stderr).toBe(0);
    const view = JSON.parse(shown.stdout) as { messages: Record<string, unknown>[] };
    expect(view.messages.map((message) => [message['role'], message['tool_calls']])).toEqual([
      ['user', []],
      ['assistant', ['read_file']],
    ]);
    expect(view.messages[0]?.['bytes']).toBe(Buffer.byteLength('private words'));
    expect(shown.stdout).not.toContain('private words');
    const table = await runCwChild(['sessions', 'show', 'default'], env);
    expect(table.stdout).toContain('calls read_file');
    expect(table.stdout).not.toContain('private words');
    const withText = await runCwChild(['sessions', 'show', 'default', '--text'], env);
    expect(withText.stdout).toContain('private words');
  });

  it('rename moves the session with its goal; rm removes both; a missing one is exit 1, a bad name exit 2', async () => {
    const model = await models.model('chat-completions', ...replies(1));
    const home = await models.home(model, { approval: 'never' });
    const env = models.envFor(home);
    expect((await runCwChild(['send', '-s', 'work', '--prompt', 'a'], env)).code).toBe(0);
    await writeFile(
      (await sessionFile(home, 'work')).replace(/\.json$/, '.goal.json'),
      JSON.stringify({ version: 1, text: 'ship it', token_budget: null, tokens_used: 3 }),
    );
    const renamed = await runCwChild(['sessions', 'rename', 'work', 'parser'], env);
    expect(renamed.code, renamed.stderr).toBe(0);
    const folder = await onlyWorkspaceFolder(home);
    expect((await readdir(folder)).sort()).toEqual(['parser.goal.json', 'parser.json']);
    expect(JSON.parse(await readFile(join(folder, 'parser.goal.json'), 'utf8'))).toMatchObject({ tokens_used: 3 });
    expect((await runCwChild(['sessions', 'rename', 'nope', 'x'], env)).code).toBe(1);
    const removed = await runCwChild(['sessions', 'rm', 'parser'], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(await readdir(folder)).toEqual([]);
    const missing = await runCwChild(['sessions', 'rm', 'parser'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('cw: no session named parser in this workspace; cw sessions lists them\n');
    const bad = await runCwChild(['sessions', 'rm', '../../config'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('config');
  });

  it('a corrupt session: preview says so and writes nothing; cw send moves it aside, names it, and starts fresh', async () => {
    const model = await models.model('chat-completions', ...replies(1));
    const home = await models.home(model, { approval: 'never' });
    const env = models.envFor(home);
    const file = await sessionFile(home);
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, '{"version": 1, "messages": [');
    const before = await homeBytes(home);
    const preview = await runCwChild(['preview-request', '--prompt', 'x'], env);
    expect(preview.code).toBe(1);
    expect(preview.stderr).toContain('session default is not valid JSON; cw send moves it aside');
    expect(await homeBytes(home)).toEqual(before);
    expect((await listed(env)).map((session) => session.corrupt)).toEqual([true]);

    const sent = await runCwChild(['send', '--prompt', 'again'], env);
    expect(sent.code, sent.stderr).toBe(0);
    const aside = /moved it aside to (sessions\/\S+\/default\.json\.corrupt-\S+) and started it fresh/.exec(
      sent.stderr,
    )?.[1];
    expect(aside).toBeDefined();
    expect(await readFile(join(home, aside ?? ''), 'utf8')).toBe('{"version": 1, "messages": [');
    expect(await conversation(home)).toEqual([
      ['user', 'again'],
      ['assistant', 'r0'],
    ]);
  });
});
