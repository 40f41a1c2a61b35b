import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.js';
import { withFileLock } from '../state/file-lock.js';
import { workspaceKeyOf } from '../state/session-location.js';

// Kept in the cw home, never in the workspace: a command the model runs can write the workspace, and
// must not be able to grant itself permissions. The sandbox hides the cw home whole.
function permissionsFile(home: string, workspace: string): string {
  return join(home, 'permissions', `${workspaceKeyOf(workspace)}.json`);
}

/** The workspace's kept permissions file cannot be read as cw wrote it. */
export class ProjectPermissionsError extends Error {
  override readonly name = 'ProjectPermissionsError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor() {
    super(
      "this workspace's kept permissions (answers of always here) are not readable: fix or remove its file under permissions/ in the cw home",
    );
    this.safeMessage = this.message;
  }
}

/** The allow rules a person kept for this workspace by answering "always here" (docs/agent-loop.md). */
export async function readProjectPermissions(home: string, workspace: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(permissionsFile(home, workspace), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ProjectPermissionsError();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ProjectPermissionsError();
  }
  const allow = (parsed as { allow?: unknown } | null)?.allow;
  if (!Array.isArray(allow) || !allow.every((rule) => typeof rule === 'string')) throw new ProjectPermissionsError();
  return allow as string[];
}

/** Adds an allow rule to the workspace's kept permissions, under a lock, written atomically. */
export async function keepProjectPermission(home: string, workspace: string, rule: string): Promise<void> {
  const file = permissionsFile(home, workspace);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await withFileLock(file, async () => {
    const allow = await readProjectPermissions(home, workspace);
    if (allow.includes(rule)) return;
    await writeFileAtomic(file, `${JSON.stringify({ allow: [...allow, rule] }, null, 2)}\n`);
  });
}
