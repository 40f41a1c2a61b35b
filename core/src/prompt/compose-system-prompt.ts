import type { PromptLayer } from '../context/prompt-layer.js';
import { BUNDLED_BASE_PROMPT } from './base-prompt.js';

/** Where the base prompt bytes came from. */
export type BasePromptOrigin = 'bundled';

/** The composed system prompt and how it was assembled, for the manifest's provenance fields. */
export interface SystemPrompt {
  readonly text: string;
  readonly basePrompt: string;
  readonly origin: BasePromptOrigin;
  readonly assembly: 'base-only' | 'base-with-configured-layers';
  /** The layers appended after the base, in order; `text` is the base followed by each layer's text. */
  readonly layers: readonly PromptLayer[];
}

/**
 * Composes the system prompt for a turn: the bundled base, then the instruction layers (AGENTS.md).
 * No layers means exactly the base bytes. Nothing that changes per turn or per day is in it, so its
 * bytes, and the prompt-cache prefix they start, stay put (docs/project-context.md).
 */
export function composeSystemPrompt(layers: readonly PromptLayer[] = []): SystemPrompt {
  return {
    text: BUNDLED_BASE_PROMPT + layers.map((layer) => layer.text).join(''),
    basePrompt: BUNDLED_BASE_PROMPT,
    origin: 'bundled',
    assembly: layers.length > 0 ? 'base-with-configured-layers' : 'base-only',
    layers,
  };
}
