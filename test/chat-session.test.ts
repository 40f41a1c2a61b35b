// The interactive session (`cw` alone on a terminal) driven in a real pseudo-terminal: tmux runs
// the built CLI against a scripted local model, the test types keys and reads the screen.
import { execFileSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEY, sessionFile } from './support/cw-fixture.js';
import { MCP_FIXTURE } from './support/mcp-fixture.js';
import { everythingEntry } from './support/published-mcp-server.js';
import { type ScriptedCall, useScriptedModels } from './support/scripted-model.js';
import { runCwChild, waitFor } from './support/spawn-cw.js';
import { hasTmux, TmuxSession } from './support/tmux-session.js';

const models = useScriptedModels('CW_CHAT_KEY', FAKE_KEY);
const shell = (id: string, command: string): ScriptedCall => ({
  id,
  name: 'shell',
  arguments: JSON.stringify({ command }),
});
// A duration no other process on the machine is likely to sleep for, so the check finds only ours.
const SLEEP = 'sleep 37.25';

let term: TmuxSession | undefined;

afterEach(() => {
  term?.close();
  term = undefined;
});

/** The session the running test started. */
function current(): TmuxSession {
  if (term === undefined) throw new Error('no tmux session started');
  return term;
}

const tmux = (...args: string[]): string => current().tmux(...args);
const screen = (): string => current().screen();
const waitForScreen = (text: string, what = text, timeoutMs = 10_000): Promise<void> =>
  current().waitForScreen(text, what, timeoutMs);
const count = (text: string): number => current().count(text);
const type = (text: string): void => current().type(text);
const paneDead = (): boolean => current().paneDead();

function processArgs(): { pid: number; args: string }[] {
  return execFileSync('ps', ['-A', '-o', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ pid: Number(match[1]), args: match[2] ?? '' }));
}

/** `pid` and every process below it. */
function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((row) => row.length === 2);
  const found = [pid];
  for (let index = 0; index < found.length; index++)
    for (const [child, parent] of rows) if (parent === found[index] && child !== undefined) found.push(child);
  return found;
}

/** Whether `pid` is a running process (a zombie waiting to be reaped is not). */
const alive = (pid: number): boolean =>
  execFileSync('ps', ['-A', '-o', 'pid=,stat='], { encoding: 'utf8' })
    .split('\n')
    .some((line) => {
      const [found, state] = line.trim().split(/\s+/);
      return Number(found) === pid && !(state ?? '').startsWith('Z');
    });

/** Starts `cw <args>` in a fresh tmux pane of 120×40 in `cwd`; returns the cw process id. */
async function startInTmux(env: Record<string, string>, cwd: string, args: readonly string[] = []): Promise<number> {
  term = TmuxSession.start(await models.folder('cw-chat-tmux-'), { env, cwd, args });
  return term.pid();
}

describe('cw alone off a terminal', () => {
  it('prints help as before, and cw chat says to use cw send', async () => {
    const model = await models.model('chat-completions');
    const env = models.envFor(await models.home(model));
    const help = await runCwChild([], env);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('USAGE');
    expect(help.stdout).toMatch(/chat\s+Talk with the agent/);
    const chat = await runCwChild(['chat'], env);
    expect(chat.code).toBe(2);
    expect(chat.stderr).toContain('cw chat needs a terminal; from a script, use cw send --prompt <text>.');
    expect(model.requests).toHaveLength(0);
  });
});

describe.skipIf(!hasTmux)('cw alone on a terminal: the interactive session', () => {
  it('streams, asks, previews, cancels a running call with Ctrl-C, keeps history, and leaves nothing behind', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { text: 'Let me look.', calls: [shell('call_yes', 'echo approved > approved.txt')] } },
      {
        carries: [{ id: 'call_yes', includes: '' }],
        reply: { calls: [shell('call_no', 'echo refused > refused.txt')] },
      },
      { carries: [{ id: 'call_no', includes: '' }], reply: { text: 'STREAMED reply: all done.' } },
      { reply: { calls: [shell('call_sleep', SLEEP)] } },
    );
    const ws = await models.folder('cw-chat-ws-');
    const home = await models.home(model, { workspace: ws, approval: 'ask' });
    const cwPid = await startInTmux(models.envFor(home), ws);

    await waitForScreen('/help for commands', 'the banner');
    await waitForScreen('› ', 'the prompt');
    type('fix it');
    await waitForScreen('run shell echo approved > approved.txt?', 'the first approval');
    type('y');
    await waitForScreen('run shell echo refused > refused.txt?', 'the second approval');
    type('n');
    await waitForScreen('STREAMED reply: all done.', 'the streamed reply');
    await waitForScreen('tokens: ', 'the usage line');
    const afterTurn = screen();
    expect(afterTurn).toContain('Let me look.');
    expect(afterTurn).toMatch(/✓ shell echo approved > approved\.txt \(ok, \d+ ms\)/);
    expect(afterTurn).toContain('· shell echo refused > refused.txt (refused)');
    expect(await readFile(join(ws, 'approved.txt'), 'utf8')).toBe('approved\n');
    await expect(stat(join(ws, 'refused.txt'))).rejects.toThrow();

    // An unknown command is one line, and the session goes on.
    type('/previwe');
    await waitForScreen('Did you mean /preview?', 'the unknown-command line');

    const prompts = count('› ');
    type('/preview next step');
    await waitForScreen('context window', 'the manifest table');
    await waitFor(() => count('› ') > prompts, 10_000, 'the prompt after /preview');
    expect(screen()).toMatch(/whole body +[0-9a-f]{64}/);

    type('wait a while');
    await waitForScreen(`run shell ${SLEEP}?`, 'the sleep approval');
    type('y');
    await waitFor(() => processArgs().some((entry) => entry.args.includes(SLEEP)), 10_000, 'sleep to run');
    const beforeCancel = count('› ');
    tmux('send-keys', '-t', 'chat', 'C-c');
    await waitForScreen('cw: cancelled', 'the cancellation line');
    await waitFor(() => count('› ') > beforeCancel, 5_000, 'the prompt after Ctrl-C');
    await waitFor(() => !processArgs().some((entry) => entry.args.includes(SLEEP)), 5_000, 'sleep to be gone');

    // The session holds every answered call, the cancelled one answered as cw send answers it.
    const stored = JSON.parse(await readFile(await sessionFile(home), 'utf8')) as {
      messages: Record<string, unknown>[];
    };
    const results = stored.messages.filter((message) => message['role'] === 'tool');
    expect(results.map((message) => [message['tool_call_id'], message['status']])).toEqual([
      ['call_yes', 'ok'],
      ['call_no', 'refused'],
      ['call_sleep', expect.stringMatching(/^(not-executed|cancelled)$/)],
    ]);
    expect(model.problems).toEqual([]);
    expect(model.requests).toHaveLength(4);

    if (process.env['CW_SHOW_SCREEN']) console.log(screen());
    // The pane's process tree as it stands: cw and anything it still runs.
    const tree = descendants(cwPid);
    type('/exit');
    await waitFor(paneDead, 5_000, 'cw to leave');
    await waitFor(() => tree.every((pid) => !alive(pid)), 5_000, 'every process of the pane to be gone');
    expect(processArgs().filter((entry) => entry.args.includes(SLEEP))).toEqual([]);

    // What was typed is kept for the next session, bounded and owner-only.
    const history = JSON.parse(await readFile(join(home, 'chat-history.json'), 'utf8')) as { entries: string[] };
    expect(history.entries).toEqual(['fix it', '/previwe', '/preview next step', 'wait a while', '/exit']);
  }, 60_000);

  it('says what to fix for a bad command or value and goes on; Ctrl-C twice at the prompt leaves', async () => {
    const model = await models.model('chat-completions');
    const ws = await models.folder('cw-chat-ws-');
    const home = await models.home(model, { workspace: ws });
    const cwPid = await startInTmux(models.envFor(home), ws, ['chat', '-n', '--approval', 'read-only']);
    await waitForScreen('cw · session s1 · approval read-only', 'the banner');
    // Two lines arrive at once (a paste), the second before the first is answered: both are answered, in turn.
    tmux('send-keys', '-t', 'chat', '-l', '/route nowhere\r/reasoning sky\r');
    await waitForScreen('cw: unknown route nowhere: /route takes one of the ids cw routes lists (Tab completes them)');
    await waitForScreen('cw: /reasoning takes one of off, minimal, low, medium, high, xhigh, max, auto');
    type('/route');
    await waitForScreen('route fault · model m · approval read-only', 'the choices in force, unchanged');
    // Tab completes a command name.
    tmux('send-keys', '-t', 'chat', '-l', '/ses');
    tmux('send-keys', '-t', 'chat', 'Tab');
    await waitForScreen('› /sessions', 'the completed command');
    tmux('send-keys', '-t', 'chat', 'Enter');
    await waitForScreen('no sessions stored in this workspace yet');
    tmux('send-keys', '-t', 'chat', 'C-c');
    await waitForScreen('(Ctrl-C again or Ctrl-D to leave)');
    expect(paneDead()).toBe(false);
    tmux('send-keys', '-t', 'chat', 'C-c');
    await waitFor(paneDead, 5_000, 'cw to leave');
    expect(alive(cwPid)).toBe(false);
    expect(model.requests).toHaveLength(0);
  }, 30_000);

  it('Ctrl-D at the prompt leaves', async () => {
    const model = await models.model('chat-completions');
    const ws = await models.folder('cw-chat-ws-');
    const home = await models.home(model, { workspace: ws });
    const cwPid = await startInTmux(models.envFor(home), ws);
    await waitForScreen('/help for commands', 'the banner');
    tmux('send-keys', '-t', 'chat', 'C-d');
    await waitFor(paneDead, 5_000, 'cw to leave');
    expect(alive(cwPid)).toBe(false);
  }, 30_000);

  it('asks about an MCP call with a preview of its arguments; "always this server" covers the next call; /mcp shows it running; /exit stops it', async () => {
    const add = (id: string, a: number, b: number): ScriptedCall => ({
      id,
      name: 'mcp__fixture__add',
      arguments: JSON.stringify({ a, b }),
    });
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [add('call_a', 2, 3)] } },
      { carries: [{ id: 'call_a', includes: '5' }], reply: { calls: [add('call_b', 1, 1)] } },
      { carries: [{ id: 'call_b', includes: '2' }], reply: { text: 'MCP says 5 and 2.' } },
    );
    const ws = await models.folder('cw-chat-ws-');
    const server = { command: process.execPath, args: [MCP_FIXTURE] };
    const home = await models.home(model, { workspace: ws, approval: 'ask', mcpServers: { fixture: server } });
    const refreshed = await runCwChild(['mcp', 'refresh'], models.envFor(home));
    expect(refreshed.code, refreshed.stderr).toBe(0);
    const cwPid = await startInTmux(models.envFor(home), ws);
    await waitForScreen('/help for commands', 'the banner');
    type('/mcp');
    await waitForScreen('not-started', 'the server not started yet');
    type('add some numbers');
    await waitForScreen('arguments: a: 2, b: 3', 'the argument preview');
    await waitForScreen('/ always this [s]erver (fixture): ', 'the server answer');
    type('s');
    await waitForScreen('MCP says 5 and 2.', 'the reply');
    // The second call of the same server ran without a question.
    expect(count('run mcp__fixture__add')).toBe(1);
    expect(screen()).toMatch(/✓ mcp__fixture__add fixture\/add \(ok, \d+ ms\)[\s\S]*✓ mcp__fixture__add fixture\/add/);
    type('/mcp');
    await waitForScreen('running', 'the server running');
    const tree = descendants(cwPid);
    expect(tree.length).toBeGreaterThan(1);
    type('/exit');
    await waitFor(paneDead, 5_000, 'cw to leave');
    await waitFor(() => tree.every((pid) => !alive(pid)), 5_000, 'cw and the MCP server to be gone');
    expect(model.problems).toEqual([]);
  }, 40_000);

  it('/server:prompt runs an MCP server prompt as the next turn; a bad argument is one line and no turn', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'Lyon weather noted.' } });
    const ws = await models.folder('cw-chat-ws-');
    const home = await models.home(model, { workspace: ws, mcpServers: { everything: await everythingEntry() } });
    await startInTmux(models.envFor(home), ws);
    await waitForScreen('/help for commands', 'the banner');
    type('/everything:args-prompt Lyon');
    await waitForScreen('argument 1 is not name=value', 'the argument error');
    type('/everything:args-prompt city=Lyon');
    await waitForScreen('Lyon weather noted.', 'the reply');
    expect(model.requests).toHaveLength(1);
    const body = JSON.parse(model.requests[0]?.view.raw ?? '{}') as { messages: { role: string; content: string }[] };
    expect(body.messages.filter((message) => message.role === 'user').at(-1)?.content).toContain('Lyon');
    type('/exit');
    await waitFor(paneDead, 5_000, 'cw to leave');
  }, 40_000);

  it('a line typed while a turn runs is queued and sent when it ends', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [shell('call_wait', 'sleep 3')] } },
      { carries: [{ id: 'call_wait', includes: '' }], reply: { text: 'First turn done.' } },
      { reply: { text: 'Second turn done.' } },
    );
    const ws = await models.folder('cw-chat-ws-');
    const home = await models.home(model, { workspace: ws, approval: 'workspace' });
    await startInTmux(models.envFor(home), ws);
    await waitForScreen('/help for commands', 'the banner');
    type('wait a little');
    await waitForScreen('shell', 'the running call');
    type('and then this');
    await waitForScreen('queued: and then this', 'the queue notice');
    await waitForScreen('Second turn done.', 'the queued turn', 20_000);
    expect(model.requests).toHaveLength(3);
    const last = JSON.parse(model.requests[2]?.view.raw ?? '{}') as { messages: { role: string; content: string }[] };
    expect(last.messages.filter((message) => message.role === 'user').at(-1)?.content).toContain('and then this');
    type('/exit');
    await waitFor(paneDead, 5_000, 'cw to leave');
  }, 40_000);
});
