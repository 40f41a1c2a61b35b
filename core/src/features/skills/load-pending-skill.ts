import { findSkill } from './discover-skills.js';
import { PendingSkillError, readPendingSkill } from './pending-skill.js';
import type { SkillFile } from './skill-file.js';

/** The session's pending skill as a submit would use it: ready to wrap the prompt, or why it cannot. */
export type PendingSkill =
  | { readonly status: 'ready'; readonly skill: SkillFile }
  | { readonly status: 'broken'; readonly name: string | null; readonly problem: string };

/**
 * Reads the pending skill of a session and the SKILL.md it names. Reads only: the skill stays pending
 * until a send uses it. A pending skill that is gone or broken is a prompt-resolution failure waiting
 * to happen, so it is returned as such rather than thrown.
 */
export async function loadPendingSkill(
  home: string,
  session: string,
  workspace: string | null,
): Promise<PendingSkill | null> {
  let name: string | null;
  try {
    name = await readPendingSkill(home, session);
  } catch (error) {
    if (error instanceof PendingSkillError) return { status: 'broken', name: null, problem: error.message };
    throw error;
  }
  if (name === null) return null;
  const found = await findSkill(home, workspace, name);
  if (found === null)
    return {
      status: 'broken',
      name,
      problem: `the pending skill ${name} is not installed; cw skills clear removes it`,
    };
  if (found.status === 'broken')
    return { status: 'broken', name, problem: `the pending skill ${name}: ${found.problem}` };
  return { status: 'ready', skill: found.skill };
}

/** The prompt as the pending skill wraps it: the skill's instructions first, then what was typed. */
export function wrapWithSkill(skill: SkillFile, prompt: string): string {
  const body = skill.body.endsWith('\n') ? skill.body : `${skill.body}\n`;
  return `<skill name="${skill.name}">\n${body}</skill>\n\n${prompt}`;
}
