// The sandbox's public names, for the CLI and plugins (docs/security.md).
export {
  type CommandSandbox,
  type CommandSandboxOptions,
  type WrappedCommand,
  openCommandSandbox,
} from './command-sandbox.js';
export { type SandboxProgram, type SandboxState, findSandboxProgram, sandboxState } from './find-sandbox.js';
export { HIDDEN_UNDER_HOME } from './hidden-paths.js';
export {
  DEFAULT_SANDBOX_CONFIG,
  SANDBOX_MODES,
  type SandboxConfig,
  type SandboxMode,
  type SandboxNetworkPolicy,
  networkPolicyOf,
} from './sandbox-config.js';
export { GIT_COMMIT_WRITABLE, GIT_WRITE_REFUSAL, isProtectedGitPath } from './git-write-rules.js';
export { SandboxUnavailableError } from './sandbox-unavailable-error.js';
export { type ConfiguredSandbox, openConfiguredSandbox } from './open-configured-sandbox.js';
export { type SandboxCheckRow, checkSandbox } from './check-sandbox.js';
