import type { CwSnapshot } from '../../snapshot/snapshot.js';
import type { TurnPrompt } from '../../prompt/user-message.js';
import { pendingSkillOf } from '../skills/skills-feature.js';
import { PromptResolutionError } from './prompt-resolution-error.js';
import { type ResourceSource, resolvePrompt } from './resolve-prompt.js';

/**
 * Resolves a turn's prompt as a real submit does (file mentions, the pending skill), reading only.
 * Without a working context (a snapshot not loaded for a folder) the prompt is used as typed. A
 * failure is returned, not thrown: preview reports it, send stops on it.
 */
export async function resolveTurnPrompt(
  snapshot: CwSnapshot,
  prompt: string,
  /** How a send reads `@server:uri` mentions; null in a preview, which reads none. */
  reading: ResourceSource['reading'] = null,
): Promise<{ readonly prompt: TurnPrompt; readonly error: string | null }> {
  if (snapshot.workingContext === undefined) return { prompt, error: null };
  const pending = pendingSkillOf(snapshot);
  if (pending?.status === 'broken') return { prompt, error: pending.problem };
  try {
    return {
      prompt: await resolvePrompt(prompt, snapshot.workingContext, pending === null ? null : pending.skill, {
        servers: snapshot.config.mcpServers,
        reading,
      }),
      error: null,
    };
  } catch (error) {
    if (!(error instanceof PromptResolutionError)) throw error;
    return { prompt, error: error.message };
  }
}
