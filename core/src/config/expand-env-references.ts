import { safeEnvVarName } from '../redaction/safe-env-var-name.js';

// `${env:NAME}`: the only reference form. NAME is what a POSIX shell accepts as a variable name.
const REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
const OPENER = '${env:';

/**
 * An `${env:NAME}` placeholder that cannot be expanded: the variable is unset, or the placeholder is
 * malformed. The message names the variable (a name is never a secret; safeEnvVarName still
 * fingerprints a name that is itself key-shaped) and never any value.
 */
export class McpEnvReferenceError extends Error {
  override readonly name = 'McpEnvReferenceError';
  readonly exitCode = 1;
  /** The variable that is unset, or null for a malformed reference. */
  readonly variable: string | null;
  /** The message as printed: cw's words and the variable name as safeEnvVarName shows it. */
  readonly safeMessage: string;
  constructor(variable: string | null) {
    const text =
      variable === null
        ? 'a ${env:NAME} reference is malformed: write ${env:} around a variable name of letters, digits and _'
        : `environment variable ${safeEnvVarName(variable)} is not set (the config refers to it as \${env:${safeEnvVarName(variable)}})`;
    super(text);
    this.variable = variable;
    this.safeMessage = text;
  }
}

/** True when `text` holds `${env:` that does not form a well-made `${env:NAME}` reference. */
export function hasMalformedEnvReference(text: string): boolean {
  return text.replace(REFERENCE, '').includes(OPENER);
}

/** The variable names `text` refers to, in order of first appearance, each once. */
export function envReferenceNames(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(REFERENCE), (match) => match[1] ?? ''))];
}

/**
 * Replaces every `${env:NAME}` in `text` with that variable's value from `env`. An unset variable
 * or a malformed reference throws McpEnvReferenceError; a variable set to the empty string expands
 * to the empty string. Everything else in `text` is kept byte for byte (no other escapes exist).
 */
export function expandEnvReferences(text: string, env: Readonly<Record<string, string | undefined>>): string {
  if (hasMalformedEnvReference(text)) throw new McpEnvReferenceError(null);
  return text.replace(REFERENCE, (_whole, name: string) => {
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    if (value === undefined) throw new McpEnvReferenceError(name);
    return value;
  });
}

/** expandEnvReferences applied to every value of a record (server `env` or `headers`); keys stay as written. */
export function expandEnvRecord(
  record: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const expanded: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) expanded[key] = expandEnvReferences(value, env);
  return expanded;
}
