// Nothing outlives cw (docs/agent-loop.md, "Nothing outlives cw"): the BUILT CLI with real
// bubblewrap, SIGKILLed at the fork of the sandboxed command and while it runs; nothing of the
// command may start after cw is gone or stay alive after it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KILLS, UNKNOWN, killAt, processesNaming, shell, uniqueSleep, useCrashRigs } from './support/crash-rig.js';
import { needBubblewrap } from './support/require-bubblewrap.js';
import { runCwChild, spawnCw, waitFor } from './support/spawn-cw.js';

const rigs = useCrashRigs();

describe('SIGKILL at the fork of the sandboxed command (bubblewrap)', () => {
  it(`${KILLS} times: the command never starts and nothing it would run is alive after cw`, async (context) => {
    needBubblewrap(context);
    const crash = await rigs.rig();
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
    const last = await runCwChild(['send', '--prompt', 'next'], crash.plainEnv());
    expect(last.code, last.stderr).toBe(0);
    expect(crash.model.problems).toEqual([]);
  }, 120_000);

  it('a command let go dies with cw: killed while it runs, nothing of it stays alive', async (context) => {
    needBubblewrap(context);
    const crash = await rigs.rig();
    const marker = uniqueSleep();
    crash.model.andThen({ reply: { calls: [shell('call_run', `sleep ${marker} & sleep ${marker}`)] } });
    const cw = spawnCw(['send', '--prompt', 'run'], crash.plainEnv());
    const sleeping = (): number => processesNaming(marker).filter((line) => /^\S+\s+sleep /.test(line)).length;
    await waitFor(() => sleeping() >= 2, 10_000, 'both sleeps to run');
    cw.child.kill('SIGKILL');
    await cw.done;
    await waitFor(() => processesNaming(marker).length === 0, 2_000, 'the command to die').catch(() => undefined);
    expect(processesNaming(marker)).toEqual([]);
  });
});

describe('SIGKILL at the fork of an unsandboxed command (setpriv)', () => {
  it('5 times: the command never starts after cw is gone; one let go dies with cw', async () => {
    const crash = await rigs.rig({ sandbox: { mode: 'off' } });
    const marker = uniqueSleep();
    for (let round = 0; round < 5; round++) {
      crash.model.andThen({ reply: { calls: [shell(`call_${round}`, `touch started-${round}; sleep ${marker}`)] } });
      await killAt(crash, 'command-spawned', `round ${round}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(existsSync(join(crash.ws, `started-${round}`))).toBe(false);
      expect(processesNaming(marker)).toEqual([]);
    }
    crash.model.andThen({ reply: { calls: [shell('call_run', `exec sleep ${marker}`)] } });
    const cw = spawnCw(['send', '--prompt', 'run'], crash.plainEnv());
    await waitFor(() => processesNaming(marker).length > 0, 10_000, 'the command to run');
    cw.child.kill('SIGKILL');
    await cw.done;
    await waitFor(() => processesNaming(marker).length === 0, 2_000, 'the command to die').catch(() => undefined);
    expect(processesNaming(marker)).toEqual([]);
  });
});
