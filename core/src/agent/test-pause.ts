import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_MODE_ENV, TEST_MODE_MARKER } from '../transport/test-origin.js';

// Crash and Ctrl-C tests must land a kill or a signal at one exact point of a step, every time,
// without sleeping (docs/agent-loop.md, "After a crash"). Outside a test run this is one lookup.

/** The variable naming the point a test run holds the step at (`point`, or `point#n` for its n-th time). */
export const TEST_PAUSE_AT_ENV = 'CW_TEST_PAUSE_AT';
/** The folder where cw, held at that point, creates a file named after it. */
export const TEST_PAUSE_DIR_ENV = 'CW_TEST_PAUSE_DIR';
const HOLD_MS = 10_000;

/** A hold at named points: absent unless the test-mode marker and both variables are set. */
export type TestPause = (point: string) => Promise<void>;

/**
 * The test pause of a run, or undefined. Held at its point, cw creates `<dir>/<point>` and waits
 * until `signal` aborts (a Ctrl-C) or at most HOLD_MS, so a test sees the file and then acts.
 */
export function testPauseOf(env: NodeJS.ProcessEnv, signal?: AbortSignal): TestPause | undefined {
  const at = env[TEST_PAUSE_AT_ENV];
  const dir = env[TEST_PAUSE_DIR_ENV];
  if (env[TEST_MODE_ENV] !== TEST_MODE_MARKER || !at || !dir) return undefined;
  // `point#n` holds at the n-th time the step reaches the point (the second write of a step).
  const [name, nth] = at.split('#');
  let reached = 0;
  return (point) => {
    if (point !== name || ++reached !== Number(nth ?? 1)) return Promise.resolve();
    writeFileSync(join(dir, point), '');
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(resolve, HOLD_MS);
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  };
}
