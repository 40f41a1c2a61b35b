import { type FileHandle, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openBeneath, WorkspaceAccessError } from '../../sandbox/open-beneath-workspace.js';
import {
  MAX_SKILL_FILE_BYTES,
  parseSkillFile,
  SkillFileError,
  SKILL_NAME_PATTERN,
  type SkillFile,
} from './skill-file.js';

/** Where a skill was found: the cw home's `skills` folder, or the workspace's `.cw/skills`. */
export type SkillSource = 'home' | 'workspace';

/** One skill folder as found: usable, or with the problem that makes it unusable. */
export type FoundSkill =
  | { readonly status: 'ok'; readonly source: SkillSource; readonly skill: SkillFile }
  | { readonly status: 'broken'; readonly source: SkillSource; readonly name: string; readonly problem: string };

/** The folders skills are read from, in the order a later one overrides an earlier one of the same name. */
export function skillFolders(
  home: string,
  workspace: string | null,
): { source: SkillSource; folder: string; root: string | null }[] {
  return [
    { source: 'home', folder: join(home, 'skills'), root: null },
    ...(workspace === null
      ? []
      : [{ source: 'workspace' as const, folder: join(workspace, '.cw', 'skills'), root: workspace }]),
  ];
}

/**
 * Every skill in the cw home and the workspace, by name; a workspace skill overrides a home skill of
 * the same name. Folders whose name is not a skill name are skipped. Reads only.
 */
export async function discoverSkills(home: string, workspace: string | null): Promise<FoundSkill[]> {
  const byName = new Map<string, FoundSkill>();
  for (const { source, folder, root } of skillFolders(home, workspace)) {
    let names: string[];
    try {
      names = (await readdir(folder, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
        .map((entry) => entry.name)
        .filter((name) => SKILL_NAME_PATTERN.test(name))
        .sort();
    } catch {
      continue;
    }
    for (const name of names) byName.set(name, await readSkill(source, folder, name, root));
  }
  return [...byName.values()].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
}

/** One skill by name, as discovery finds it; null when no folder holds it. */
export async function findSkill(home: string, workspace: string | null, name: string): Promise<FoundSkill | null> {
  if (!SKILL_NAME_PATTERN.test(name)) return null;
  let found: FoundSkill | null = null;
  for (const { source, folder, root } of skillFolders(home, workspace)) {
    const skill = await readSkill(source, folder, name, root);
    if (skill.status === 'broken' && skill.problem === MISSING) continue;
    found = skill;
  }
  return found;
}

/** The name a found skill goes by. */
export function nameOf(found: FoundSkill): string {
  return found.status === 'ok' ? found.skill.name : found.name;
}

const MISSING = 'has no SKILL.md';

/**
 * A workspace skill is opened beneath the workspace and judged on its descriptor, so a skill folder
 * linked out of it is refused (docs/security.md, "Files cw opens in the workspace"); the home's are
 * the user's own.
 */
async function readSkill(source: SkillSource, folder: string, name: string, root: string | null): Promise<FoundSkill> {
  const broken = (problem: string): FoundSkill => ({ status: 'broken', source, name, problem });
  let text: string;
  try {
    const file = join(folder, name, 'SKILL.md');
    const handle: FileHandle = root === null ? await open(file, 'r') : (await openBeneath(root, file)).handle;
    try {
      const info = await handle.stat();
      if (!info.isFile()) return broken('SKILL.md is not a file');
      if (info.size > MAX_SKILL_FILE_BYTES) return broken(`SKILL.md is larger than ${MAX_SKILL_FILE_BYTES} bytes`);
      const bytes = await handle.readFile();
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof WorkspaceAccessError)
      return broken('SKILL.md leads out of the workspace through a symbolic link');
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return broken(MISSING);
    if (error instanceof TypeError) return broken('SKILL.md is not UTF-8 text');
    return broken(`SKILL.md cannot be read (${typeof code === 'string' ? code : 'read error'})`);
  }
  try {
    return { status: 'ok', source, skill: parseSkillFile(text, name) };
  } catch (error) {
    if (error instanceof SkillFileError) return broken(`SKILL.md ${error.message}`);
    throw error;
  }
}
