import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { claimSession } from './claim-session.js';
import { readStoredSession } from './session-store.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'cw-claim-session-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

it('stores an empty session once: a second claim of the same key, even at once, gets nothing', async () => {
  const claims = await Promise.all([claimSession(home, 'ws-0123456789/s1'), claimSession(home, 'ws-0123456789/s1')]);
  expect(claims.sort()).toEqual([false, true]);
  expect(await claimSession(home, 'ws-0123456789/s1')).toBe(false);
  expect((await readStoredSession(home, 'ws-0123456789/s1')).messages).toEqual([]);
  // No temp file is left beside it.
  expect(await readdir(join(home, 'sessions', 'ws-0123456789'))).toEqual(['s1.json']);
});
