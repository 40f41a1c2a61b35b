import type { PromptLayer } from '../context/prompt-layer.js';
import { BUNDLED_BASE_PROMPT } from './base-prompt.js';

/** Where the base prompt bytes came from. */
export type BasePromptOrigin = 'bundled';

/** The composed system prompt and how it was assembled, for the manifest's provenance fields. */
export interface SystemPrompt {
  readonly text: string;
  readonly basePrompt: string;
  readonly origin: BasePromptOrigin;
  readonly assembly: 'base-only' | 'base-with-configured-layers' | 'base-with-runtime-additions';
  /** The layers appended after the base, in order; `text` is the base followed by each layer's text. */
  readonly layers: readonly PromptLayer[];
}

/**
 * Composes the system prompt for a turn: the bundled base, then the instruction layers (AGENTS.md),
 * then the turn-context block when it is on. No layers means exactly the base bytes.
 */
export function composeSystemPrompt(layers: readonly PromptLayer[] = []): SystemPrompt {
  const runtime = layers.some((layer) => layer.kind === 'turn-context');
  return {
    text: BUNDLED_BASE_PROMPT + layers.map((layer) => layer.text).join(''),
    basePrompt: BUNDLED_BASE_PROMPT,
    origin: 'bundled',
    assembly: runtime ? 'base-with-runtime-additions' : layers.length > 0 ? 'base-with-configured-layers' : 'base-only',
    layers,
  };
}
