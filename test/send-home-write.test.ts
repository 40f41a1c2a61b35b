// What cw send does when the cw home cannot take what it writes: a home that cannot be written stops
// the send before anything goes out; a reply the session cannot take after the provider answered is
// kept in a recovery file that cw names. Each send runs as a child process of the BUILT CLI (run
// `npm run build` first), against a local server on 127.0.0.1.
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSession, sessionFile } from './support/cw-fixture.js';
import { useFaultHomes } from './support/fault-home.js';
import { data, type FaultHandler } from './support/fault-server.js';
import { runCwChild, sessionFolderEntries } from './support/spawn-cw.js';

const KEY_ENV = 'CW_HOME_TEST_KEY';
const PROMPT = 'keep my reply';
const REPLY = 'an answer worth keeping';
const HISTORY = [
  { role: 'user', content: 'earlier' },
  { role: 'assistant', content: 'before' },
];

const fault = useFaultHomes(KEY_ENV);
// The stored and recovered turns are compared with the prompts as typed: no turn-context block.
const NO_TURN_CONTEXT = { context: { turn_context: false } };

/** Runs `meanwhile` while the request is in flight, then answers a complete streamed reply. */
function replyAfter(meanwhile: () => Promise<void>): FaultHandler {
  return async (_request, response) => {
    await meanwhile();
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(data({ choices: [{ delta: { content: REPLY } }] }));
    response.write(data({ choices: [{ delta: {}, finish_reason: 'stop' }] }));
    response.end('data: [DONE]\n\n');
  };
}

/** Every file and folder under `root`, relative, sorted. */
async function tree(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true })).sort();
}

describe('a cw home that cannot be written', () => {
  it('`sessions` is a regular file: send exits 1 saying the home is not writable, and sends nothing', async () => {
    const home = await fault.home(undefined, NO_TURN_CONTEXT);
    await writeFile(join(home, 'sessions'), 'not a folder\n');
    const before = fault.server.received.length;
    const layout = await tree(home);
    const exit = await runCwChild(['send', '--prompt', PROMPT], fault.envFor(home));
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('the cw home is not writable');
    expect(exit.stderr).toContain('nothing was sent');
    expect(fault.server.received.length - before).toBe(0);
    expect(await readFile(join(home, 'sessions'), 'utf8')).toBe('not a folder\n');
    expect(await tree(home)).toEqual(layout);
  });

  it('`sessions` is a link to nowhere: send exits 1 saying the home is not writable, and sends nothing', async () => {
    const home = await fault.home(undefined, NO_TURN_CONTEXT);
    await symlink(join(home, 'gone', 'sessions'), join(home, 'sessions'));
    const before = fault.server.received.length;
    const exit = await runCwChild(['send', '--prompt', PROMPT], fault.envFor(home));
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('the cw home is not writable');
    expect(exit.stderr).not.toContain(home);
    expect(fault.server.received.length - before).toBe(0);
  });
});

/** The recovery file cw named on stderr, relative to the cw home. */
function namedRecoveryFile(stderr: string): string {
  const match = /it was written to (recovered\/default-[A-Za-z0-9-]+\.json) in the cw home/.exec(stderr);
  expect(match, `stderr names no recovery file: ${stderr}`).not.toBeNull();
  return match?.[1] ?? '';
}

async function expectRecovered(file: string): Promise<void> {
  expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
    session: 'default',
    turn: [
      { role: 'user', content: PROMPT },
      { role: 'assistant', content: REPLY, body_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ],
  });
}

describe('a reply the session cannot take is kept in a recovery file', () => {
  it('the session file is replaced by a folder while the request is in flight', async () => {
    const home = await fault.home(undefined, NO_TURN_CONTEXT);
    await writeSession(home, 'default', HISTORY);
    const session = await sessionFile(home);
    fault.server.next(
      replyAfter(async () => {
        await rm(session);
        await mkdir(session);
      }),
    );
    const before = fault.server.received.length;
    const exit = await runCwChild(['send', '--prompt', PROMPT], fault.envFor(home));
    expect(exit.code).toBe(1);
    expect(fault.server.received.length - before).toBe(1);
    // The streamed reply ended its line; the error line names where the reply went, relative to the home.
    expect(exit.stdout).toBe(`${REPLY}\n`);
    expect(exit.stderr.trim().split('\n').at(-1)).toMatch(/^cw: the reply could not be saved to the session \(/);
    expect(exit.stderr).not.toContain(home);
    await expectRecovered(join(home, namedRecoveryFile(exit.stderr)));
    // The lock was released.
    expect(await sessionFolderEntries(home)).toEqual(['default.json']);
  });

  it('a session edited by hand while the request is in flight is not overwritten; the turn is recovered', async () => {
    const home = await fault.home(undefined, NO_TURN_CONTEXT);
    await writeSession(home, 'default', HISTORY);
    const session = await sessionFile(home);
    let edited = '';
    fault.server.next(
      replyAfter(async () => {
        const file = JSON.parse(await readFile(session, 'utf8')) as { version: 1; messages: unknown[] };
        file.messages.push({ role: 'user', content: 'typed by hand meanwhile' });
        edited = JSON.stringify(file);
        await writeFile(session, edited);
      }),
    );
    const exit = await runCwChild(['send', '--prompt', PROMPT], fault.envFor(home));
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('the reply could not be saved to the session (the session changed)');
    await expectRecovered(join(home, namedRecoveryFile(exit.stderr)));
    // The hand edit is what the session holds: the turn was refused, not interleaved or written over it.
    expect(await readFile(session, 'utf8')).toBe(edited);
    expect(await sessionFolderEntries(home)).toEqual(['default.json']);
  });

  it('when the home cannot hold the recovery file either, it goes to the system temporary folder', async () => {
    const home = await fault.home(undefined, NO_TURN_CONTEXT);
    await writeSession(home, 'default', HISTORY);
    // `recovered` is taken by a regular file, so nothing can be written under it.
    await writeFile(join(home, 'recovered'), '');
    const temp = await fault.folder('cw-tmpdir-');
    const session = await sessionFile(home);
    fault.server.next(
      replyAfter(async () => {
        await rm(session);
        await mkdir(session);
      }),
    );
    const exit = await runCwChild(['send', '--prompt', PROMPT], fault.envFor(home, { TMPDIR: temp }));
    expect(exit.code).toBe(1);
    const match = /it was written to (cw-recovered-default-[A-Za-z0-9-]+\.json) in the system temporary folder/.exec(
      exit.stderr,
    );
    expect(match, exit.stderr).not.toBeNull();
    expect(exit.stderr).not.toContain(temp);
    await expectRecovered(join(temp, match?.[1] ?? ''));
  });
});
