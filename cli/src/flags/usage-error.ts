/** Error for bad command-line arguments; the command prints `message` to stderr and exits 2. */
export class UsageError extends Error {
  readonly exitCode = 2;

  constructor(reason: string, usage: string) {
    super(`${reason}\n${usage}`);
    this.name = 'UsageError';
  }
}
