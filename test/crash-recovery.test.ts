// cw killed at the worst moments (docs/agent-loop.md, "After a crash"): the BUILT CLI runs against a
// scripted model, is held at an exact point of a step by the test pause (CW_TEST_PAUSE_AT) and
// SIGKILLed there, again and again on one session. Every next send must tell the model the truth
// about each call, leave no process and no temp copy of the conversation behind, and keep every
// saved step whole.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSandboxProgram } from '@cw/core';
import { FAKE_KEY, sessionFile } from './support/cw-fixture.js';
import { type ScriptedCall, type ScriptedModel, useScriptedModels } from './support/scripted-model.js';
import { runCwChild, spawnCw, waitFor } from './support/spawn-cw.js';

const KEY_ENV = 'CW_CRASH_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
const KILLS = 20;
const UNKNOWN = 'Effects unknown: cw stopped while this call ran';
const NOT_EXECUTED = 'Not executed';

const shell = (id: string, command: string): ScriptedCall => ({
  id,
  name: 'shell',
  arguments: JSON.stringify({ command }),
});

function requireBubblewrap(): void {
  expect(
    findSandboxProgram(process.env, 'linux'),
    'bubblewrap (bwrap) is not on PATH: .ci/run installs it (apt-get install -y bubblewrap)',
  ).not.toBeNull();
}

interface Rig {
  readonly model: ScriptedModel;
  readonly home: string;
  readonly ws: string;
  readonly pauses: string;
  env(pauseAt: string): Record<string, string>;
}

async function rig(): Promise<Rig> {
  const model = await models.model('chat-completions');
  const base = await models.folder('cw-crash-');
  const ws = join(base, 'ws');
  const pauses = join(base, 'pauses');
  await mkdir(ws, { recursive: true });
  await mkdir(pauses);
  const home = await models.home(model, { workspace: ws, approval: 'workspace' });
  return {
    model,
    home,
    ws,
    pauses,
    env: (pauseAt) =>
      models.envFor(home, {
        CW_TEST_MODE: 'loopback-fake-keys',
        CW_TEST_PAUSE_AT: pauseAt,
        CW_TEST_PAUSE_DIR: pauses,
      }),
  };
}

/** Starts `cw send`, waits until it is held at `point`, and SIGKILLs it there. */
async function killAt(rig: Rig, pauseAt: string, prompt: string): Promise<void> {
  const point = pauseAt.split('#')[0] as string;
  await rm(join(rig.pauses, point), { force: true });
  const cw = spawnCw(['send', '--prompt', prompt], rig.env(pauseAt));
  await waitFor(() => existsSync(join(rig.pauses, point)), 10_000, `cw to reach ${pauseAt}`).catch(async (error) => {
    cw.child.kill('SIGKILL');
    const exit = await cw.done;
    throw new Error(`${String(error)}; cw said: ${exit.stderr}`);
  });
  cw.child.kill('SIGKILL');
  await cw.done;
}

/** The saved session, parsed: a torn file fails here. */
async function savedMessages(home: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(await sessionFile(home), 'utf8');
  return (JSON.parse(text) as { messages: Record<string, unknown>[] }).messages;
}

async function tempFiles(home: string): Promise<string[]> {
  return (await readdir(dirname(await sessionFile(home)))).filter((entry) => entry.endsWith('.tmp'));
}

/** What the model read for call `id` in request `index`. */
function resultFor(model: ScriptedModel, index: number, id: string): string | undefined {
  return model.resultsOf(index).get(id);
}

/** Live processes whose command line names `marker` (a unique sleep length), zombies aside. */
function processesNaming(marker: string): string[] {
  return execFileSync('ps', ['-A', '-o', 'stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.includes(marker) && !line.startsWith('Z'));
}

/** A sleep length no other process on this machine uses. */
const uniqueSleep = (): string => `30.${process.pid}${String(Date.now()).slice(-6)}`;

describe('SIGKILL after a call ran and before its result was saved', () => {
  it(`${KILLS} times: each next send answers the call "effects unknown", never "not executed"`, async () => {
    const crash = await rig();
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
    const preview = await runCwChild(
      ['preview-request', 'json', '--prompt', 'what happened?'],
      models.envFor(crash.home),
    );
    expect(preview.code, preview.stderr).toBe(0);
    expect(JSON.parse(preview.stdout).session.unknown_effect_calls).toBe(KILLS);
    crash.model.andThen({ carries: [{ id: `call_${KILLS - 1}`, includes: UNKNOWN }], reply: { text: 'checked' } });
    const last = await runCwChild(['send', '--prompt', 'what happened?'], models.envFor(crash.home));
    expect(last.code, last.stderr).toBe(0);
    expect(crash.model.problems).toEqual([]);
    for (let round = 0; round < KILLS; round++) {
      const seen = resultFor(crash.model, round + 1, `call_${round}`) ?? '';
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
    const shown = await runCwChild(['sessions', 'show', 'default'], models.envFor(crash.home));
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('shell (unknown)');
  }, 120_000);
});

describe('SIGKILL inside the session write', () => {
  it(`${KILLS} times, alternating the reply's write and the results' write: no torn file, no lost step, no temp copy left`, async () => {
    const crash = await rig();
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
    const last = await runCwChild(['send', '--prompt', 'and now?'], models.envFor(crash.home));
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

  it('cw sessions rm removes the temp copy a killed write left', async () => {
    const crash = await rig();
    crash.model.andThen({ reply: { text: 'first' } });
    const first = await runCwChild(['send', '--prompt', 'one'], models.envFor(crash.home));
    expect(first.code, first.stderr).toBe(0);
    crash.model.andThen({ reply: { text: 'second' } });
    await killAt(crash, 'inside-write', 'two');
    const folder = dirname(await sessionFile(crash.home));
    expect(await tempFiles(crash.home)).toHaveLength(1);
    const removed = await runCwChild(['sessions', 'rm', 'default'], models.envFor(crash.home));
    expect(removed.code, removed.stderr).toBe(0);
    expect((await readdir(folder)).filter((entry) => !entry.startsWith('.') || entry.endsWith('.tmp'))).toEqual([]);
  });
});

describe('SIGKILL at the fork of the sandboxed command (bubblewrap)', () => {
  it(`${KILLS} times: the command never starts and nothing it would run is alive after cw`, async () => {
    requireBubblewrap();
    const crash = await rig();
    const marker = uniqueSleep();
    for (let round = 0; round < KILLS; round++) {
      crash.model.andThen({
        reply: { calls: [shell(`call_${round}`, `touch started-${round}; sleep ${marker}`)] },
      });
      await killAt(crash, 'command-spawned', `round ${round}`);
      // Had the command been let go, it would touch its file at once.
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(existsSync(join(crash.ws, `started-${round}`))).toBe(false);
      await waitFor(() => processesNaming(marker).length === 0, 2_000, 'the sandbox to be gone').catch(() => undefined);
      expect(processesNaming(marker)).toEqual([]);
    }
    // The call was marked started, so the model is told to check, not that it never ran.
    crash.model.andThen({ carries: [{ id: `call_${KILLS - 1}`, includes: UNKNOWN }], reply: { text: 'ok' } });
    const last = await runCwChild(['send', '--prompt', 'next'], models.envFor(crash.home));
    expect(last.code, last.stderr).toBe(0);
    expect(crash.model.problems).toEqual([]);
  }, 120_000);

  it('a command let go dies with cw: killed while it runs, nothing of it stays alive', async () => {
    requireBubblewrap();
    const crash = await rig();
    const marker = uniqueSleep();
    crash.model.andThen({ reply: { calls: [shell('call_run', `sleep ${marker} & sleep ${marker}`)] } });
    const cw = spawnCw(['send', '--prompt', 'run'], models.envFor(crash.home));
    const sleeping = (): number => processesNaming(marker).filter((line) => /^\S+\s+sleep /.test(line)).length;
    await waitFor(() => sleeping() >= 2, 10_000, 'both sleeps to run');
    cw.child.kill('SIGKILL');
    await cw.done;
    await waitFor(() => processesNaming(marker).length === 0, 2_000, 'the command to die').catch(() => undefined);
    expect(processesNaming(marker)).toEqual([]);
  });
});

describe('Ctrl-C at every await boundary of a step', () => {
  const BOUNDARIES = [
    'reply-received',
    'inside-write',
    'reply-saved',
    'before-start',
    'marked-started',
    'command-spawned',
  ];
  const CALLS = 12;

  it.each(BOUNDARIES)('at %s: exit 130 within 1 s, and no call starts after the signal', async (boundary) => {
    const crash = await rig();
    const calls = Array.from({ length: CALLS }, (_, index) => shell(`call_${index}`, `echo ${index} >> ran.txt`));
    crash.model.andThen({ reply: { calls } });
    await rm(join(crash.pauses, boundary), { force: true });
    const cw = spawnCw(['send', '--prompt', 'run them all'], crash.env(boundary));
    await waitFor(() => existsSync(join(crash.pauses, boundary)), 10_000, `cw to reach ${boundary}`);
    const signalled = Date.now();
    cw.child.kill('SIGINT');
    const exit = await cw.done;
    const tookMs = Date.now() - signalled;
    expect(exit.code, exit.stderr).toBe(130);
    expect(tookMs).toBeLessThan(1_000);
    expect(existsSync(join(crash.ws, 'ran.txt'))).toBe(false);
    // Every call is answered, none as run.
    const answers = (await savedMessages(crash.home)).filter((message) => message['role'] === 'tool');
    expect(answers).toHaveLength(CALLS);
    expect(answers.filter((message) => message['status'] === 'ok')).toEqual([]);
  });
});
