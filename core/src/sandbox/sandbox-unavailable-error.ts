/** `--sandbox required` (or config `sandbox.mode: "required"`) on a machine with no sandbox: nothing ran. */
export class SandboxUnavailableError extends Error {
  override readonly name = 'SandboxUnavailableError';
  readonly exitCode = 1;
  /** The message as printed: cw's own words only. */
  readonly safeMessage: string;
  constructor(platform: NodeJS.Platform = process.platform) {
    const what =
      platform === 'darwin'
        ? 'sandbox-exec was not found'
        : platform === 'linux'
          ? 'bubblewrap (bwrap) is not on PATH'
          : 'this system has no sandbox cw can use';
    super(
      `sandbox mode required, but ${what}: nothing was run; install bubblewrap, or use --sandbox on to be asked about each command`,
    );
    this.safeMessage = this.message;
  }
}
