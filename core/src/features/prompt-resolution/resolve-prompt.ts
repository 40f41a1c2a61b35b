import type { McpServerConfig } from '../../config/cw-config.js';
import type { WorkingContext } from '../../snapshot/snapshot.js';
import { wrapWithSkill } from '../skills/load-pending-skill.js';
import type { SkillFile } from '../skills/skill-file.js';
import type { ResolvedPrompt } from '../../prompt/user-message.js';
import { findMentions, MAX_MENTIONED_FILES, readMentionedFiles, unescapeMentions } from './file-mentions.js';
import { PromptResolutionError } from './prompt-resolution-error.js';
import { type ResourceReading, readResourceMentions, splitMentions } from './resource-mentions.js';

/**
 * Where `@server:uri` mentions come from: the configured servers, and how to read them (null in a
 * preview, which reads none, so the resources are counted as unread).
 */
export interface ResourceSource {
  readonly servers: Readonly<Record<string, McpServerConfig>>;
  readonly reading: Omit<ResourceReading, 'servers'> | null;
}

/**
 * Resolves a prompt into model-facing content: the files and MCP resources it mentions, and the
 * pending skill's instructions before it. Throws PromptResolutionError for what a submit cannot
 * resolve. Mentions are read from the typed prompt only, never from a skill's text.
 */
export async function resolvePrompt(
  prompt: string,
  where: WorkingContext,
  skill: SkillFile | null = null,
  resources: ResourceSource | null = null,
): Promise<ResolvedPrompt> {
  const mentions = findMentions(prompt);
  const split = resources === null ? { files: mentions, resources: [] } : splitMentions(mentions, resources.servers);
  if (mentions.length > MAX_MENTIONED_FILES)
    throw new PromptResolutionError(
      `the prompt mentions ${mentions.length} files and resources; at most ${MAX_MENTIONED_FILES} may be attached`,
    );
  const files = await readMentionedFiles(split.files, where);
  const reading = resources?.reading ?? null;
  const read =
    reading === null || resources === null || split.resources.length === 0
      ? []
      : await readResourceMentions(split.resources, { ...reading, servers: resources.servers });
  const unread = reading === null ? split.resources.length : 0;
  const text = unescapeMentions(prompt);
  return {
    text: skill === null ? text : wrapWithSkill(skill, text),
    files: [...files, ...read],
    skill: skill?.name ?? null,
    ...(unread > 0 ? { unreadResources: unread } : {}),
  };
}
