// Crash and interrupt tests of the agent loop (docs/agent-loop.md, "After a crash"): a home on a
// scripted model, cw held at an exact point of a step by the test pause (CW_TEST_PAUSE_AT), and
// what to look at afterwards.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FAKE_KEY, sessionFile } from './cw-fixture.js';
import { type ScriptedCall, type ScriptedModel, useScriptedModels } from './scripted-model.js';
import { spawnCw, waitFor } from './spawn-cw.js';

/** How many times each kill is repeated. */
export const KILLS = 20;
/** What the model reads for a call a killed cw left started. */
export const UNKNOWN = 'Effects unknown: cw stopped while this call ran';
export const NOT_EXECUTED = 'Not executed';

/** A shell call of the scripted model. */
export const shell = (id: string, command: string): ScriptedCall => ({
  id,
  name: 'shell',
  arguments: JSON.stringify({ command }),
});

/** A home on a scripted model, its workspace, and the folder the test pause reports in. */
export interface CrashRig {
  readonly model: ScriptedModel;
  readonly home: string;
  readonly ws: string;
  readonly pauses: string;
  /** The environment of a cw child held at `pauseAt`. */
  env(pauseAt: string): Record<string, string>;
  /** The environment of a cw child that is not held. */
  plainEnv(): Record<string, string>;
}

/** Scripted models and rigs for the calling test file. */
export function useCrashRigs(): { rig(config?: Record<string, unknown>): Promise<CrashRig> } {
  const models = useScriptedModels('CW_CRASH_KEY', FAKE_KEY);
  return {
    async rig(config = {}) {
      const model = await models.model('chat-completions');
      const base = await models.folder('cw-crash-');
      const ws = join(base, 'ws');
      const pauses = join(base, 'pauses');
      await mkdir(ws, { recursive: true });
      await mkdir(pauses);
      const home = await models.home(model, { workspace: ws, approval: 'workspace', ...config });
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
        plainEnv: () => models.envFor(home),
      };
    },
  };
}

/** Starts `cw send`, waits until it is held at `pauseAt`, and SIGKILLs it there. */
export async function killAt(rig: CrashRig, pauseAt: string, prompt: string): Promise<void> {
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
export async function savedMessages(home: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(await sessionFile(home), 'utf8');
  return (JSON.parse(text) as { messages: Record<string, unknown>[] }).messages;
}

/** The temp files in the session folder. */
export async function tempFiles(home: string): Promise<string[]> {
  return (await readdir(dirname(await sessionFile(home)))).filter((entry) => entry.endsWith('.tmp'));
}

/** Live processes whose command line names `marker` (a unique sleep length), zombies aside. */
export function processesNaming(marker: string): string[] {
  return execFileSync('ps', ['-A', '-o', 'stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.includes(marker) && !line.startsWith('Z'));
}

/** A sleep length no other process on this machine uses. */
export const uniqueSleep = (): string => `30.${process.pid}${String(Date.now()).slice(-6)}`;
