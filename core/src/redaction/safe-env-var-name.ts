import { fingerprint } from '../canonical/sha256.js';
import { looksSecretShaped } from './secret-shapes.js';

const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;
// Words of an ordinary variable name are short; a 20-character run between underscores is a value.
const LONG_WORD = /[A-Z0-9]{20}/;

/**
 * An environment variable name, wherever cw names the variable a user must set: "set X to your key"
 * messages and the `auth.api_key_env` of a printed route. `MOONSHOT_API_KEY` must be shown (it is the
 * whole point) although it carries the `api_key` marker that makes safeIdentifier fingerprint it; a
 * name that is itself key-shaped is still fingerprinted.
 */
export function safeEnvVarName(raw: string): string {
  return ENV_NAME.test(raw) && !LONG_WORD.test(raw) && !looksSecretShaped(raw) ? raw : fingerprint(raw);
}
