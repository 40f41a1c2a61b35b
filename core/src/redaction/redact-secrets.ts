// The secret pre-pass that runs before the error-text allowlist.
// It is a second line of defence: the allowlist alone would drop most of these tokens, but the
// pre-pass also removes what follows a sensitive key even when that value looks like ordinary words.

const SENSITIVE_HINTS = [
  'api_key',
  'apikey',
  'api-key',
  'secret',
  'token',
  'password',
  'passwd',
  'authorization',
  'auth_token',
  'access_key',
  'client_secret',
  'private_key',
] as const;

/** Word prefixes of keys: a word starting with one and longer than it by more than six characters is a secret. */
export const SECRET_PREFIXES = ['sk-', 'sk_', 'ghp_', 'gho_', 'xoxb-', 'xoxp-', 'pk-'] as const;

const REDACTED_VALUE = '[redacted]';

// A PEM private key spans lines, so the per-line rules only see its pieces and would print the armour
// lines. The whole block goes, through its END line or, if that was cut off,
// through the end of the text.
/** A PEM private key block, through its END line or the end of the text. */
export const PEM_PRIVATE_KEY =
  /-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY-----|[\s\S]*$)/gi;

function hasSensitiveHint(key: string): boolean {
  const lower = key.toLowerCase();
  return SENSITIVE_HINTS.some((hint) => lower.includes(hint));
}

function firstSeparator(text: string): number {
  const equals = text.indexOf('=');
  const colon = text.indexOf(':');
  if (equals < 0) return colon;
  if (colon < 0) return equals;
  return Math.min(equals, colon);
}

// `key: value` where the key names a secret: the whole value goes, whatever it looks like.
function redactKeyedLine(line: string): string | undefined {
  const separator = firstSeparator(line);
  if (separator < 0) return undefined;
  const key = line
    .slice(0, separator)
    .trim()
    .replace(/["'[\]]/g, '');
  if (!hasSensitiveHint(key)) return undefined;
  const rest = line.slice(separator + 1);
  const value = rest.trimStart();
  // Nothing to hide; leave the line to the per-word pass rather than inventing a marker.
  if (value.trim() === '') return undefined;
  const gap = rest.slice(0, rest.length - value.length);
  const quoted = value.startsWith('"') || value.startsWith("'");
  return line.slice(0, separator + 1) + gap + (quoted ? `"${REDACTED_VALUE}"` : REDACTED_VALUE);
}

function redactWord(word: string): string {
  const start = word.search(/[^"',;]/);
  if (start < 0) return word;
  let end = word.length;
  while (end > start && `"',;`.includes(word.charAt(end - 1))) end -= 1;
  const core = word.slice(start, end);
  const replaced = redactCore(core);
  return replaced === core ? word : word.slice(0, start) + replaced + word.slice(end);
}

function redactCore(core: string): string {
  const separator = firstSeparator(core);
  if (separator >= 0 && separator < core.length - 1) {
    const key = core.slice(0, separator).replace(/^[^A-Za-z0-9_-]+|[^A-Za-z0-9_-]+$/g, '');
    if (hasSensitiveHint(key)) return core.slice(0, separator + 1) + REDACTED_VALUE;
  }
  const lower = core.toLowerCase();
  const prefix = SECRET_PREFIXES.find((candidate) => lower.startsWith(candidate));
  if (prefix !== undefined && core.length > prefix.length + 6) return REDACTED_VALUE;
  return core;
}

// The line structure is kept; the allowlist that runs next flattens it.
/** Replaces the values of `secret=…` pairs, prefixed keys (`sk-…`) and PEM key blocks with `[redacted]`. */
export function redactSecrets(text: string): string {
  return text
    .replace(PEM_PRIVATE_KEY, REDACTED_VALUE)
    .split('\n')
    .map((rawLine) => {
      const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
      return redactKeyedLine(line) ?? line.split(' ').map(redactWord).join(' ');
    })
    .join('\n');
}
