import type { PreparedOutboundRequest } from '../prepare-outbound-request.js';
import type { CapabilityRow } from '../route/capability-row.js';
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

/** The header that carries the key on a route, and its value: the row's auth scheme says which. */
export function credentialHeader(auth: CapabilityRow['auth'], key: string): readonly [name: string, value: string] {
  switch (auth.scheme) {
    case 'x-api-key':
      return ['x-api-key', key];
    case 'header':
      // The row schema guarantees the name for this scheme; a null here is a row built around it.
      if (auth.key_header === null) throw new Error('auth scheme header without key_header');
      return [auth.key_header, key];
    default:
      return ['authorization', `Bearer ${key}`];
  }
}
