import type { WorkingContext } from '../../snapshot/snapshot.js';
import { wrapWithSkill } from '../skills/load-pending-skill.js';
import type { SkillFile } from '../skills/skill-file.js';
import { findMentions, readMentionedFiles, unescapeMentions, type MentionedFile } from './file-mentions.js';

/** A prompt resolved as a real submit resolves it: the text the model reads and the files it mentioned. */
export interface ResolvedPrompt {
  /** The prompt text (skill-wrapped, mention escapes undone), before the files are rendered after it. */
  readonly text: string;
  readonly files: readonly MentionedFile[];
  /** The skill that wrapped the prompt, or null. */
  readonly skill: string | null;
}

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
