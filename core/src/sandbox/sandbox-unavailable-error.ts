/** No sandbox on this machine where one is needed: under `required` (nothing ran) or for `cw sandbox check`. */
export class SandboxUnavailableError extends Error {
  override readonly name = 'SandboxUnavailableError';
  readonly exitCode = 1;
  /** The message as printed: cw's own words only. */
  readonly safeMessage: string;
  constructor(during: 'required' | 'check' = 'required', platform: NodeJS.Platform = process.platform) {
    const what =
      platform === 'darwin'
        ? 'sandbox-exec was not found'
        : platform === 'linux'
          ? 'bubblewrap (bwrap) is not in a system folder on PATH'
          : 'this system has no sandbox cw can use';
    super(
      during === 'required'
        ? `sandbox mode required, but ${what}: nothing was run; install bubblewrap, or use --sandbox on to be asked about each command`
        : `no sandbox to check: ${what}; cw send asks about each command instead (sandbox.mode on) or refuses to start (required)`,
    );
    this.safeMessage = this.message;
  }
}
