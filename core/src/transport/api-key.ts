import type { PreparedOutboundRequest } from '../prepare-outbound-request.js';
import { safeEnvVarName } from '../redaction/safe-env-var-name.js';

/** The key's environment variable is named by the route but empty; nothing was sent. */
export class MissingApiKeyError extends Error {
  override readonly name = 'MissingApiKeyError';
  readonly exitCode = 1;
  /** The message with the variable name shown when it is an ordinary name: it is what the user must set. */
  readonly safeMessage: string;
  constructor(readonly variable: string) {
    super(`set the environment variable ${variable} to the API key of this route; nothing was sent`);
    this.safeMessage = `set the environment variable ${safeEnvVarName(variable)} to the API key of this route; nothing was sent`;
  }
}

/** Reads the API key named by the route from the environment. */
export function apiKeyFor(prepared: PreparedOutboundRequest, env: NodeJS.ProcessEnv): string | null {
  if (prepared.apiKeyEnv === null) return null;
  const key = env[prepared.apiKeyEnv];
  if (key === undefined || key.trim() === '') throw new MissingApiKeyError(prepared.apiKeyEnv);
  return key;
}
