/** Where a system-prompt layer after the base came from (docs/project-context.md). */
export type PromptLayerKind = 'home-instructions' | 'workspace-instructions';

/** One layer of the system prompt after the base: its exact text as sent, wrapper included. */
export interface PromptLayer {
  readonly kind: PromptLayerKind;
  /** Folders below the workspace root the file sits in (0 at the root); 0 for the other kinds. */
  readonly depth: number;
  /** The layer's text exactly as it is appended to the system prompt. */
  readonly text: string;
  /** Whether the source file was longer than its bound and was cut. */
  readonly truncated: boolean;
}

/** Cuts text to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, truncated: false };
  let end = Math.max(0, maxBytes);
  // Step back over continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}
