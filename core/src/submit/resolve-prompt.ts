import { findMentions, readMentionedFiles, unescapeMentions, type MentionedFile } from './file-mentions.js';

/** A prompt resolved as a real submit resolves it: the text the model reads and the files it mentioned. */
export interface ResolvedPrompt {
  /** The prompt text (skill-wrapped, mention escapes undone), before the files are rendered after it. */
  readonly text: string;
  readonly files: readonly MentionedFile[];
  /** The skill that wrapped the prompt, or null. */
  readonly skill: string | null;
}

/** Where a prompt is resolved: the workspace (real path) and the folder cw runs in (real path). */
export interface WorkingContext {
  readonly workspace: string;
  readonly cwd: string;
}

/**
 * Resolves a prompt into model-facing content. Reads only; throws PromptResolutionError for what a
 * submit cannot resolve.
 */
export async function resolvePrompt(prompt: string, where: WorkingContext): Promise<ResolvedPrompt> {
  const files = await readMentionedFiles(findMentions(prompt), where);
  return { text: unescapeMentions(prompt), files, skill: null };
}
