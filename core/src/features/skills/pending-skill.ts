import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { lazySchema } from '../../validation/lazy-zod.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { withFileLock } from '../../state/file-lock.js';
import { sessionStateFile } from '../../state/session-state-file.js';
import { SKILL_NAME_PATTERN } from './skill-file.js';

const pendingSkillSchema = lazySchema((z) =>
  z.strictObject({ version: z.literal(1), name: z.string().regex(SKILL_NAME_PATTERN) }),
);

/** The pending-skill file of a session cannot be read; the message names no path. */
export class PendingSkillError extends Error {
  override readonly name = 'PendingSkillError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor(message: string) {
    super(message);
    this.safeMessage = message;
  }
}

/** Where a session's pending skill is kept. */
export function pendingSkillFile(home: string, session: string): string {
  return sessionStateFile(home, session, 'skill.json');
}

/** The skill the session's next prompt is wrapped with, or null. Never writes. */
export async function readPendingSkill(home: string, session: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(pendingSkillFile(home, session), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new PendingSkillError(
      `the pending skill cannot be read (${code ?? 'read error'}); cw skills clear removes it`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new PendingSkillError('the pending skill file is not valid JSON; cw skills clear removes it');
  }
  const parsed = pendingSkillSchema.safeParse(raw);
  if (!parsed.success)
    throw new PendingSkillError('the pending skill file has an unexpected shape; cw skills clear removes it');
  return parsed.data.name;
}

// Setting or taking a pending skill takes milliseconds; a lock held longer belongs to a stuck process.
const LOCK_WAIT_MS = 10_000;

async function withPendingLock<T>(home: string, session: string, work: () => Promise<T>): Promise<T> {
  const file = pendingSkillFile(home, session);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  return withFileLock(file, work, { timeoutMs: LOCK_WAIT_MS });
}

/** Makes `name` the skill the session's next prompt is wrapped with, replacing any pending one. */
export async function setPendingSkill(home: string, session: string, name: string): Promise<void> {
  await withPendingLock(home, session, () =>
    writeFileAtomic(pendingSkillFile(home, session), `${JSON.stringify({ version: 1, name }, null, 2)}\n`),
  );
}

/**
 * Removes the pending skill. With `only`, removes it only while it is still that skill, so a send
 * never takes a skill someone chose after the send read its own. Returns whether one was removed.
 */
export async function clearPendingSkill(home: string, session: string, only?: string): Promise<boolean> {
  return withPendingLock(home, session, async () => {
    const current = await readPendingSkill(home, session).catch(() => '');
    if (current === null || (only !== undefined && current !== only)) return false;
    await rm(pendingSkillFile(home, session), { force: true });
    return true;
  });
}
