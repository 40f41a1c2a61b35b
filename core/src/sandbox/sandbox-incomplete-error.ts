/** The sandbox program is here, but a part it needs for its promises is not: nothing is run without it. */
export class SandboxIncompleteError extends Error {
  override readonly name = 'SandboxIncompleteError';
  readonly exitCode = 1;
  /** The message as printed: cw's own words only. */
  readonly safeMessage: string;
  constructor(missing: 'prlimit' | 'seccomp') {
    super(
      missing === 'prlimit'
        ? 'the sandbox needs prlimit (util-linux) in /usr/bin or /bin to bound processes and file sizes: nothing was run; install util-linux, or use --sandbox off knowingly'
        : `the sandbox has no Unix-socket filter for this CPU (${process.arch}): nothing was run; use --sandbox off knowingly`,
    );
    this.safeMessage = this.message;
  }
}
