// Concurrent `cw send` on one session, as a user hits it: several terminals (or a script) sending at
// once, and locks left behind by cw processes that were killed. Every send runs as its own child
// process of the BUILT CLI (run `npm run build` first), against a local server on 127.0.0.1.
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { sessionFile, writeSession } from './support/cw-fixture.js';
import { useFaultHomes } from './support/fault-home.js';
import { data, type FaultHandler } from './support/fault-server.js';
import {
  type CwExit,
  runCwChild,
  sessionFolderEntries,
  sessionMessages,
  spawnCw,
  waitFor,
} from './support/spawn-cw.js';

const KEY_ENV = 'CW_CONC_KEY';
const WAITING = 'waiting for another cw send on this session to finish';
const REMOVED = 'removed a session lock left by a cw process that is no longer running';

// Homes whose active route is a custom chat-completions route on the fault server.
const fault = useFaultHomes(KEY_ENV);
// The histories compared here are the prompts as typed: no turn-context block in front of them.
const NO_TURN_CONTEXT = { context: { turn_context: false } };

interface ChatMessage {
  readonly role: string;
  readonly content: unknown;
}

function bodyMessages(body: string): ChatMessage[] {
  return (JSON.parse(body) as { messages: ChatMessage[] }).messages;
}

/** The text of the last user message of a chat-completions request body. */
function lastUserPrompt(body: string): string {
  const last = bodyMessages(body)
    .filter((message) => message.role === 'user')
    .at(-1);
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content);
}

/** Answers with a complete streamed reply naming the request's prompt, after 0–50 ms. */
const echoReply: FaultHandler = async (request, response) => {
  await sleep(Math.floor(Math.random() * 50));
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(data({ choices: [{ delta: { content: `reply to ${lastUserPrompt(request.body)}` } }] }));
  response.write(data({ choices: [{ delta: {}, finish_reason: 'stop' }] }));
  response.end('data: [DONE]\n\n');
};

function expectSuccess(exit: CwExit, what: string): void {
  // The stderr rides along in the message, so a failure says why.
  expect(exit.code, `${what} exited ${String(exit.code)}; stderr: ${exit.stderr}`).toBe(0);
}

describe('concurrent cw send on one session', () => {
  it('eight sends at once run one after another, each on the history the previous one saved (two rounds)', async () => {
    const home = await fault.home(undefined, NO_TURN_CONTEXT);
    const env = fault.envFor(home);
    const allPrompts: string[] = [];
    const requestsBefore = fault.server.received.length;

    for (const round of [0, 1]) {
      const prompts = Array.from({ length: 8 }, (_, index) => `p${round * 8 + index}`);
      allPrompts.push(...prompts);
      const before = fault.server.received.length;
      fault.server.next(...prompts.map(() => echoReply));
      const exits = await Promise.all(prompts.map((prompt) => spawnCw(['send', '--prompt', prompt], env).done));

      exits.forEach((exit, index) => {
        expectSuccess(exit, `send ${prompts[index]}`);
        // Each process printed the reply to its own prompt, nothing else.
        expect(exit.stdout).toBe(`reply to ${prompts[index]}\n`);
        // Every lock was held by a live cw send: none may be taken for a stale one and broken.
        expect(exit.stderr).not.toContain(REMOVED);
      });
      expect(fault.server.received.length - before).toBe(8);

      const messages = await sessionMessages(home);
      expect(messages).toHaveLength(allPrompts.length * 2);
      // Turns are whole: each user message is followed by the reply to that same prompt.
      const turnPrompts: string[] = [];
      for (let index = 0; index < messages.length; index += 2) {
        const user = messages[index];
        const assistant = messages[index + 1];
        expect(user?.['role']).toBe('user');
        expect(assistant?.['role']).toBe('assistant');
        expect(assistant?.['content']).toBe(`reply to ${String(user?.['content'])}`);
        turnPrompts.push(String(user?.['content']));
      }
      // Every prompt exactly once.
      expect([...turnPrompts].sort()).toEqual([...allPrompts].sort());

      // The server saw the turns in the order they were saved; request k carried the k saved turns before it.
      const requests = fault.server.received.slice(requestsBefore);
      expect(requests.map((request) => lastUserPrompt(request.body))).toEqual(turnPrompts);
      const counts = requests.map((request) => bodyMessages(request.body).length);
      expect(counts).toEqual(counts.map((_, k) => (counts[0] ?? 0) + 2 * k));
      requests.forEach((request, k) => {
        const history = bodyMessages(request.body)
          .filter((message) => message.role !== 'system')
          .map(({ role, content }) => ({ role, content }));
        const expected = [
          ...messages.slice(0, 2 * k).map((message) => ({ role: message['role'], content: message['content'] })),
          { role: 'user', content: turnPrompts[k] },
        ];
        expect(history).toEqual(expected);
      });

      // No lock folder, stale lock or temp file is left behind, and no reply had to be recovered.
      expect(await sessionFolderEntries(home)).toEqual(['default.json']);
      expect(await readdir(home)).not.toContain('recovered');
    }
  }, 50_000);
});

/** A pid that certainly belongs to no running process: a node process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise<void>((resolve) => child.on('exit', () => resolve()));
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

/** The kernel's start time of a process as cw records it (field 22 of /proc/<pid>/stat), or null. */
async function startTimeOf(pid: number): Promise<string | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

async function writeLock(home: string, owner: unknown): Promise<string> {
  const lock = `${await sessionFile(home)}.lock`;
  await mkdir(lock, { recursive: true });
  if (owner !== undefined) await writeFile(join(lock, 'owner.json'), JSON.stringify(owner));
  return lock;
}

const HISTORY = [
  { role: 'user', content: 'earlier' },
  { role: 'assistant', content: 'reply to earlier' },
];

describe('a session lock someone else left', () => {
  /** Sends one turn over a lock set up by `lock`, expecting the stale lock to be broken with the notice. */
  async function sendsOverStaleLock(owner: unknown): Promise<void> {
    const home = await fault.home(undefined, NO_TURN_CONTEXT);
    await writeSession(home, 'default', HISTORY);
    await writeLock(home, owner);
    fault.server.next(echoReply);
    const before = fault.server.received.length;
    const exit = await runCwChild(['send', '--prompt', 'after the crash'], fault.envFor(home));
    expectSuccess(exit, 'send over a stale lock');
    expect(exit.stderr).toContain(`cw: ${REMOVED}`);
    expect(exit.stderr).not.toContain(WAITING);
    expect(fault.server.received.length - before).toBe(1);
    expect(await sessionMessages(home)).toEqual([
      ...HISTORY,
      { role: 'user', content: 'after the crash' },
      { role: 'assistant', content: 'reply to after the crash' },
    ]);
    // The broken lock is gone, and so is the copy it was moved aside to.
    expect(await sessionFolderEntries(home)).toEqual(['default.json']);
  }

  it('a lock whose owner pid is dead is removed with a notice, and the turn is saved', async () => {
    const pid = await deadPid();
    await sendsOverStaleLock({ pid, startTime: null });
  });

  it('a lock whose pid now belongs to a process started at another time is removed too (pid reuse)', async () => {
    // This test runner is alive, but it is not the process that took the lock.
    const real = await startTimeOf(process.pid);
    if (real === null) return; // no /proc: start times are not known, and a live pid must be trusted
    await sendsOverStaleLock({ pid: process.pid, startTime: String(Number(real) + 12_345) });
  });

  it('an empty lock folder (no owner inside) is taken over: a live lock always holds its owner', async () => {
    const home = await fault.home(undefined, NO_TURN_CONTEXT);
    await writeSession(home, 'default', HISTORY);
    const lock = await writeLock(home, undefined);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    fault.server.next(echoReply);
    const exit = await runCwChild(['send', '--prompt', 'after the crash'], fault.envFor(home));
    expectSuccess(exit, 'send over an orphan lock');
    expect(await sessionMessages(home)).toHaveLength(4);
    expect(await sessionFolderEntries(home)).toEqual(['default.json']);
  });

  it('a fresh lock whose owner file is still empty (its owner is writing it) is waited for, not broken', async () => {
    // An owner file cw cannot read is not proof of a dead owner: it is waited for until it is old.
    const home = await fault.home(undefined, NO_TURN_CONTEXT);
    await writeSession(home, 'default', HISTORY);
    const lock = await writeLock(home, undefined);
    await writeFile(join(lock, 'owner.json'), '');
    fault.server.next(echoReply);
    const before = fault.server.received.length;
    const send = spawnCw(['send', '--prompt', 'after the wait'], fault.envFor(home));
    await Promise.race([send.done, sleep(1_500)]);
    expect(send.stderr()).not.toContain(REMOVED);
    expect(fault.server.received.length - before).toBe(0);
    await rm(lock, { recursive: true, force: true });
    const exit = await send.done;
    expectSuccess(exit, 'send after waiting');
    expect(exit.stderr).toContain(`cw: ${WAITING}`);
    expect(await sessionMessages(home)).toHaveLength(4);
  });

  it('a lock whose owner file stayed empty for long was abandoned: removed', async () => {
    const home = await fault.home(undefined, NO_TURN_CONTEXT);
    await writeSession(home, 'default', HISTORY);
    const lock = await writeLock(home, undefined);
    await writeFile(join(lock, 'owner.json'), '');
    const old = new Date(Date.now() - 60_000);
    await utimes(join(lock, 'owner.json'), old, old);
    await utimes(lock, old, old);
    fault.server.next(echoReply);
    const exit = await runCwChild(['send', '--prompt', 'after the crash'], fault.envFor(home));
    expectSuccess(exit, 'send over an abandoned lock');
    expect(exit.stderr).toContain(`cw: ${REMOVED}`);
    expect(await sessionMessages(home)).toHaveLength(4);
    expect(await sessionFolderEntries(home)).toEqual(['default.json']);
  });

  it('a lock held by a live process is waited for, with a notice; nothing is sent until it is released', async () => {
    const home = await fault.home(undefined, NO_TURN_CONTEXT);
    await writeSession(home, 'default', HISTORY);
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const pid = holder.pid;
      if (pid === undefined) throw new Error('no pid');
      const lock = await writeLock(home, { pid, startTime: await startTimeOf(pid) });
      fault.server.next(echoReply);
      const before = fault.server.received.length;
      const started = Date.now();
      const send = spawnCw(['send', '--prompt', 'after the wait'], fault.envFor(home));
      await waitFor(() => send.stderr().includes(WAITING), 10_000, 'the waiting notice');
      // Hold the lock ~1.5 s, then release it as its owner would.
      await sleep(Math.max(0, 1_500 - (Date.now() - started)));
      expect(fault.server.received.length - before).toBe(0);
      expect(send.child.exitCode).toBeNull();
      // Renamed aside first, as cw releases a lock: emptied in place, the folder could be taken over by
      // the waiting process's rename between the removal of its file and of the folder itself.
      const aside = `${home}/released-lock`;
      await rename(lock, aside);
      await rm(aside, { recursive: true, force: true });
      const exit = await send.done;
      expectSuccess(exit, 'send after waiting');
      expect(exit.stderr).toContain(`cw: ${WAITING}`);
      expect(exit.stderr).not.toContain(REMOVED);
      expect(exit.stdout).toBe('reply to after the wait\n');
      expect(fault.server.received.length - before).toBe(1);
      expect(await sessionMessages(home)).toHaveLength(4);
      expect(await sessionFolderEntries(home)).toEqual(['default.json']);
    } finally {
      holder.kill();
    }
  });
});
