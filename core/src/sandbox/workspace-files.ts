import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import type { WorkspaceFiles } from '../tools/tool-contract.js';
import { type HiddenPath, hiddenPaths } from './hidden-paths.js';
import { childOf, listOpened, openBeneath, replaceOpened, writeRefusal } from './open-beneath-workspace.js';

/**
 * The hidden paths as an open judges them: each entry by the path it names and, when it exists, by
 * its real path too, so a hidden folder reached through a link inside the workspace is still hidden
 * and one made later is hidden by its name.
 */
export async function resolveHiddenPaths(options: Parameters<typeof hiddenPaths>[0]): Promise<HiddenPath[]> {
  const out: HiddenPath[] = [];
  for (const entry of hiddenPaths(options)) {
    out.push(entry);
    // Most hidden paths do not exist; asking first spares each a rejected promise, whose error and
    // stack cost a start-up more than the question (docs/performance.md).
    const real = existsSync(entry.path) ? await realpath(entry.path).catch(() => null) : null;
    if (real !== null && real !== entry.path) out.push({ path: real, label: entry.label });
  }
  return out;
}

/** The file access the workspace tools get: every open beneath `workspace`, none of `hidden`. */
export function workspaceFiles(workspace: string, hidden: readonly HiddenPath[]): WorkspaceFiles {
  return {
    open: (target, options = {}) => openBeneath(workspace, target, { ...options, hidden }),
    list: (folder) => listOpened(folder, hidden),
    child: childOf,
    replace: (file, content) => replaceOpened(workspace, file, content, { hidden }),
    writeRefusal,
  };
}
