/** Compaction could not run; nothing was saved, and the message is cw's words. */
export class CompactionError extends Error {
  override readonly name = 'CompactionError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor(message: string) {
    super(message);
    this.safeMessage = message;
  }
}
