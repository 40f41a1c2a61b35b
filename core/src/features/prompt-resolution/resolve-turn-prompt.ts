import type { CwSnapshot } from '../../snapshot/snapshot.js';
import { PromptResolutionError } from './prompt-resolution-error.js';
import { resolvePrompt } from './resolve-prompt.js';
import type { TurnPrompt } from '../../submit/user-message.js';

/**
 * Resolves a turn's prompt as a real submit does (file mentions, the pending skill), reading only.
 * A failure is not thrown: it goes into the snapshot's pending state, where planTurn reports it as
 * `prompt-resolution-failed` in preview and send throws it. Without a working context (a snapshot not
 * loaded for a folder) the prompt is used as typed.
 */
export async function resolveTurnPrompt(
  snapshot: CwSnapshot,
  prompt: string | undefined,
): Promise<{ snapshot: CwSnapshot; prompt: TurnPrompt | undefined }> {
  if (prompt === undefined || snapshot.workingContext === undefined) return { snapshot, prompt };
  const failed = (message: string) => ({
    snapshot: { ...snapshot, pending: { ...snapshot.pending, promptResolutionError: message } },
    prompt,
  });
  const pending = snapshot.pendingSkill ?? null;
  if (pending?.status === 'broken') return failed(pending.problem);
  try {
    return {
      snapshot,
      prompt: await resolvePrompt(prompt, snapshot.workingContext, pending === null ? null : pending.skill),
    };
  } catch (error) {
    if (!(error instanceof PromptResolutionError)) throw error;
    return failed(error.message);
  }
}
