// cw killed at the worst moments (docs/agent-loop.md, "After a crash"): the BUILT CLI runs against a
// scripted model, is held at an exact point of a step by the test pause and SIGKILLed there, again
// and again on one session. Every next send must tell the model the truth about each call, leave no
// temp copy of the conversation behind, and keep every saved step whole.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionFile } from './support/cw-fixture.js';
import {
  KILLS,
  NOT_EXECUTED,
  UNKNOWN,
  killAt,
  savedMessages,
  shell,
  tempFiles,
  useCrashRigs,
} from './support/crash-rig.js';
import { needBubblewrap } from './support/require-bubblewrap.js';
import { runCwChild } from './support/spawn-cw.js';

const rigs = useCrashRigs();

describe('SIGKILL after a call ran and before its result was saved', () => {
  it(`${KILLS} times: each next send answers the call "effects unknown", never "not executed"`, async (context) => {
    needBubblewrap(context);
    const crash = await rigs.rig();
    for (let round = 0; round < KILLS; round++) {
      crash.model.andThen({
        // From the second round on, the request carries the truth about the previous round's call.
        ...(round === 0 ? {} : { carries: [{ id: `call_${round - 1}`, includes: UNKNOWN }] }),
        reply: { calls: [shell(`call_${round}`, `echo ${round} >> effects.txt`)] },
      });
      await killAt(crash, 'results-ready', `round ${round}`);
      // The effect happened: the command ran once in this round.
      const effects = (await readFile(join(crash.ws, 'effects.txt'), 'utf8')).trim().split('\n');
      expect(effects.at(-1)).toBe(String(round));
    }
    // Preview, before anything is written, already counts every call whose effects are unknown.
    const preview = await runCwChild(['preview-request', 'json', '--prompt', 'what happened?'], crash.plainEnv());
    expect(preview.code, preview.stderr).toBe(0);
    const session = JSON.parse(preview.stdout).session as Record<string, unknown>;
    expect(session['unknown_effect_calls']).toBe(KILLS);
    // In its place in the schema's order, right after the stored message count.
    const keys = Object.keys(session);
    expect(keys[keys.indexOf('stored_message_count') + 1]).toBe('unknown_effect_calls');
    crash.model.andThen({ carries: [{ id: `call_${KILLS - 1}`, includes: UNKNOWN }], reply: { text: 'checked' } });
    const last = await runCwChild(['send', '--prompt', 'what happened?'], crash.plainEnv());
    expect(last.code, last.stderr).toBe(0);
    expect(crash.model.problems).toEqual([]);
    for (let round = 0; round < KILLS; round++) {
      const seen = crash.model.resultsOf(round + 1).get(`call_${round}`) ?? '';
      expect(seen).toContain(UNKNOWN);
      expect(seen).not.toContain(NOT_EXECUTED);
    }
    // Every command ran exactly once: nothing re-ran a call.
    expect((await readFile(join(crash.ws, 'effects.txt'), 'utf8')).trim().split('\n')).toHaveLength(KILLS);
    // Every step that was saved stays saved: each prompt, its reply, and the call's answer.
    const messages = await savedMessages(crash.home);
    expect(messages.filter((message) => message['role'] === 'user')).toHaveLength(KILLS + 1);
    const answers = messages.filter((message) => message['role'] === 'tool');
    expect(answers).toHaveLength(KILLS);
    expect(answers.every((message) => message['status'] === 'unknown')).toBe(true);
    expect(await tempFiles(crash.home)).toEqual([]);

    // cw sessions show says how those calls ended.
    const shown = await runCwChild(['sessions', 'show', 'default'], crash.plainEnv());
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('shell (unknown)');
  }, 120_000);
});

describe('SIGKILL inside the session write', () => {
  it(`${KILLS} times, alternating the reply's write and the results' write: no torn file, no lost step, no temp copy left`, async (context) => {
    needBubblewrap(context);
    const crash = await rigs.rig();
    let saved = 0;
    let pendingCall: string | null = null;
    for (let round = 0; round < KILLS; round++) {
      const inResults = round % 2 === 1;
      crash.model.andThen({
        ...(pendingCall === null ? {} : { carries: [{ id: pendingCall, includes: UNKNOWN }] }),
        reply: inResults ? { calls: [shell(`call_${round}`, `echo ${round} >> effects.txt`)] } : { text: `r${round}` },
      });
      await killAt(crash, inResults ? 'inside-write#2' : 'inside-write#1', `round ${round}`);
      // Killed between the temp file and the rename: the copy is there, the session is whole.
      expect(await tempFiles(crash.home)).toHaveLength(1);
      const messages = await savedMessages(crash.home).catch(() => []);
      // A reply killed in its own write was never saved, so the call before it is still the one to answer.
      if (inResults) {
        saved++;
        pendingCall = `call_${round}`;
      }
      expect(messages.filter((message) => message['role'] === 'user')).toHaveLength(saved);
    }
    crash.model.andThen({
      ...(pendingCall === null ? {} : { carries: [{ id: pendingCall, includes: UNKNOWN }] }),
      reply: { text: 'done' },
    });
    const last = await runCwChild(['send', '--prompt', 'and now?'], crash.plainEnv());
    expect(last.code, last.stderr).toBe(0);
    expect(crash.model.problems).toEqual([]);
    // The next command removed what the killed writes left.
    expect(await tempFiles(crash.home)).toEqual([]);
    const messages = await savedMessages(crash.home);
    expect(messages.filter((message) => message['role'] === 'user')).toHaveLength(saved + 1);
    const answers = messages.filter((message) => message['role'] === 'tool');
    expect(answers).toHaveLength(saved);
    expect(answers.every((message) => message['status'] === 'unknown')).toBe(true);
  }, 120_000);

  it('cw sessions lists the sessions and removes the temp copy a killed write left', async () => {
    const crash = await rigs.rig();
    crash.model.andThen({ reply: { text: 'first' } });
    const first = await runCwChild(['send', '--prompt', 'one'], crash.plainEnv());
    expect(first.code, first.stderr).toBe(0);
    crash.model.andThen({ reply: { text: 'second' } });
    await killAt(crash, 'inside-write', 'two');
    expect(await tempFiles(crash.home)).toHaveLength(1);
    const listed = await runCwChild(['sessions'], crash.plainEnv());
    expect(listed.code, listed.stderr).toBe(0);
    expect(await tempFiles(crash.home)).toEqual([]);
    expect((await savedMessages(crash.home)).filter((message) => message['role'] === 'user')).toHaveLength(1);
  });

  it('cw sessions rm removes the temp copy a killed write left', async () => {
    const crash = await rigs.rig();
    crash.model.andThen({ reply: { text: 'first' } });
    const first = await runCwChild(['send', '--prompt', 'one'], crash.plainEnv());
    expect(first.code, first.stderr).toBe(0);
    crash.model.andThen({ reply: { text: 'second' } });
    await killAt(crash, 'inside-write', 'two');
    const folder = dirname(await sessionFile(crash.home));
    expect(await tempFiles(crash.home)).toHaveLength(1);
    const removed = await runCwChild(['sessions', 'rm', 'default'], crash.plainEnv());
    expect(removed.code, removed.stderr).toBe(0);
    expect((await readdir(folder)).filter((entry) => !entry.startsWith('.') || entry.endsWith('.tmp'))).toEqual([]);
  });
});
