import type { WorkingContext } from '../../snapshot/snapshot.js';
import { wrapWithSkill } from '../skills/load-pending-skill.js';
import type { SkillFile } from '../skills/skill-file.js';
import type { ResolvedPrompt } from '../../prompt/user-message.js';
import { findMentions, readMentionedFiles, unescapeMentions } from './file-mentions.js';

/**
 * Resolves a prompt into model-facing content: the files it mentions, and the pending skill's
 * instructions before it. Reads only; throws PromptResolutionError for what a submit cannot resolve.
 * Mentions are read from the typed prompt only, never from a skill's text.
 */
export async function resolvePrompt(
  prompt: string,
  where: WorkingContext,
  skill: SkillFile | null = null,
): Promise<ResolvedPrompt> {
  const files = await readMentionedFiles(findMentions(prompt), where);
  const text = unescapeMentions(prompt);
  return { text: skill === null ? text : wrapWithSkill(skill, text), files, skill: skill?.name ?? null };
}
