import { looksOpaque } from './opaque.js';
import { safeEnvVarName } from './safe-env-var-name.js';
import { REDACTED } from './safe-error-text.js';
import { terminalSafe } from './terminal-safe.js';

const MAX_SHOWN_CHARS = 4_096;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

// `cw config get` shows the person their own config, so ordinary strings (a workspace folder, a hook
// command) print as written; a string shaped like a credential never does, wherever it was put.
/** A config value as `cw config get` prints it: secret-shaped strings withheld, terminal controls removed. */
export function safeConfigValue(value: unknown): unknown {
  if (typeof value === 'string') {
    // `DEEPSEEK_API_KEY` names the variable to set; it carries a marker word but is no secret.
    if (ENV_NAME.test(value) && safeEnvVarName(value) === value) return value;
    if (looksOpaque(value)) return REDACTED;
    const shown = terminalSafe(value);
    return shown.length > MAX_SHOWN_CHARS ? `${shown.slice(0, MAX_SHOWN_CHARS)}\u2026` : shown;
  }
  if (Array.isArray(value)) return value.map(safeConfigValue);
  if (typeof value === 'object' && value !== null) {
    // A field name can be a pasted secret too (a header name, a route id).
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [
        looksOpaque(key) && !FIELD_WORDS.has(key) ? REDACTED : terminalSafe(key),
        safeConfigValue(entry),
      ]),
    );
  }
  return value;
}

// cw's own field names that the opaque check would flag for containing a marker word.
const FIELD_WORDS: ReadonlySet<string> = new Set(['api_key_env']);
