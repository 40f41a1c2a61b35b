/**
 * The prompt cannot be turned into model-facing content (a file mention, a skill): a real submit
 * stops here, nothing is sent or saved, and preview reports `prompt-resolution-failed`. The message
 * is cw's own words and names no path or file content.
 */
export class PromptResolutionError extends Error {
  override readonly name = 'PromptResolutionError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor(message: string) {
    super(message);
    this.safeMessage = message;
  }
}
