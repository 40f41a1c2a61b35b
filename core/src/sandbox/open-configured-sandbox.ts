import { homedir } from 'node:os';
import { type CommandSandbox, openCommandSandbox } from './command-sandbox.js';
import { type SandboxState, findSandboxProgram } from './find-sandbox.js';
import type { SandboxConfig } from './sandbox-config.js';
import { SandboxUnavailableError } from './sandbox-unavailable-error.js';

/** The sandbox a command line runs things in, and the state the manifest reports for it. */
export interface ConfiguredSandbox {
  readonly state: SandboxState;
  /** Null under `off`, or when none was found. */
  readonly sandbox: CommandSandbox | null;
  /** `on` and none found: each command is asked about instead of run unseen. */
  readonly askForCommands: boolean;
}

/**
 * Opens the sandbox config asks for: under `required` without a sandbox it throws before anything
 * runs; under `on` without one it says so through `askForCommands`; under `off` it opens nothing.
 */
export async function openConfiguredSandbox(options: {
  readonly config: SandboxConfig;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The workspace root, a real path. */
  readonly workspace: string;
  readonly cwHome: string;
}): Promise<ConfiguredSandbox> {
  const { config } = options;
  if (config.mode === 'off') return { state: 'off', sandbox: null, askForCommands: false };
  const program = findSandboxProgram(options.env, process.platform, { workspace: options.workspace });
  if (program === null) {
    if (config.mode === 'required') throw new SandboxUnavailableError();
    return { state: 'unavailable', sandbox: null, askForCommands: true };
  }
  const sandbox = await openCommandSandbox({
    program,
    config,
    workspace: options.workspace,
    home: homedir(),
    cwHome: options.cwHome,
  });
  return { state: program.kind, sandbox, askForCommands: false };
}
