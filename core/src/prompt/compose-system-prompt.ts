import { BUNDLED_BASE_PROMPT } from './base-prompt.js';

/** Where the base prompt bytes came from. */
export type BasePromptOrigin = 'bundled';

/** The composed system prompt and how it was assembled, for the manifest's provenance fields. */
export interface SystemPrompt {
  readonly text: string;
  readonly basePrompt: string;
  readonly origin: BasePromptOrigin;
  readonly assembly: 'base-only' | 'base-with-configured-layers' | 'base-with-runtime-additions';
}

/** Composes the system prompt for a turn. Only the bundled base layer exists so far. */
export function composeSystemPrompt(): SystemPrompt {
  return { text: BUNDLED_BASE_PROMPT, basePrompt: BUNDLED_BASE_PROMPT, origin: 'bundled', assembly: 'base-only' };
}
