// Ctrl-C is never lost (docs/agent-loop.md, "Ctrl-C"): the BUILT CLI is held at each await
// boundary of a step by the test pause and interrupted there; no call may start after the signal.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { savedMessages, shell, useCrashRigs } from './support/crash-rig.js';
import { needBubblewrap } from './support/require-bubblewrap.js';
import { spawnCw, waitFor } from './support/spawn-cw.js';

const rigs = useCrashRigs();

describe('Ctrl-C at every await boundary of a step', () => {
  const BOUNDARIES = [
    'reply-received',
    'inside-write',
    'reply-saved',
    'before-start',
    'marked-started',
    'command-spawned',
  ];
  // From before-start on, a command is about to run: under workspace that takes the sandbox.
  const COMMAND_BOUNDARIES = new Set(['before-start', 'marked-started', 'command-spawned']);
  const CALLS = 12;

  it.for(BOUNDARIES)('at %s: exit 130 within 1 s, and no call starts after the signal', async (boundary, context) => {
    if (COMMAND_BOUNDARIES.has(boundary)) needBubblewrap(context);
    const crash = await rigs.rig();
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
    expect(tookMs, `exit took ${tookMs} ms`).toBeLessThan(1_000);
    expect(existsSync(join(crash.ws, 'ran.txt'))).toBe(false);
    // Every call is answered, none as run.
    const answers = (await savedMessages(crash.home)).filter((message) => message['role'] === 'tool');
    expect(answers).toHaveLength(CALLS);
    expect(answers.filter((message) => message['status'] === 'ok')).toEqual([]);
  });
});
