import { PEM_PRIVATE_KEY, SECRET_PREFIXES } from './redact-secrets.js';
import { SECRET_SHAPES } from './secret-shapes.js';

// Secrets in text bound for a model: the credential shapes and key prefixes the printer's redactor
// knows, PEM private keys, and the value of an assignment whose key names a secret. The bias is the
// opposite of the printer's: this text is the model's working material (source files, logs), so an
// ordinary word must survive; only what has a credential's shape, or sits where a credential is
// assigned, is replaced.

/** What a secret is replaced with in outbound text. */
export const OUTBOUND_SECRET_MARKER = '[secret-removed-by-cw]';

// A token runs until whitespace, a quote or a closing bracket: the shape's tail is replaced with it.
const TOKEN_TAIL = '[^\\s"\'`,;<>()\\[\\]{}]*';

const SHAPES_IN_TEXT: readonly RegExp[] = [
  ...SECRET_SHAPES.filter((shape) => !shape.source.includes('PRIVATE KEY')).map(
    (shape) => new RegExp(`${shape.source}${TOKEN_TAIL}`, `${shape.flags.replace('g', '')}g`),
  ),
  new RegExp(`(?<![A-Za-z0-9_-])(?:${SECRET_PREFIXES.map(escapeRegExp).join('|')})[^\\s"'\`,;<>()\\[\\]{}]{7,}`, 'gi'),
];
// Whether any shape could match, in one scan (case-blind, so it matches at least where they do): most
// text holds no credential, and then the passes above have nothing to replace (docs/performance.md).
const ANY_SHAPE = new RegExp(SHAPES_IN_TEXT.map((shape) => `(?:${shape.source})`).join('|'), 'i');

// Key names that hold a secret: the last word of the key (split at `_`, `-`, `.` and camelCase) is
// one of these, or the last two are. `max_tokens` and `tokenizer` are not.
const SECRET_LAST_WORDS = new Set(['token', 'secret', 'password', 'passwd', 'apikey', 'authorization', 'credential']);
const SECRET_LAST_PAIRS = new Set([
  'api key',
  'access key',
  'secret key',
  'private key',
  'client secret',
  'auth token',
]);

const KEY = '[A-Za-z][A-Za-z0-9_.-]{0,63}';
const VALUE = `(?:[Bb]earer|[Bb]asic)[ \\t]+[^\\s"'\`,;&]+|"(?:[^"\\\\\\n]|\\\\.)*"|'[^'\\n]*'|[^\\s"'\`,;&]+`;
// `KEY=value`, `KEY: value` at a line start (env files, YAML, headers); `"key": "value"` anywhere (JSON).
const ASSIGNMENT_AT_LINE_START = new RegExp(`^([ \\t]*(?:export[ \\t]+)?)(${KEY})([ \\t]*[:=][ \\t]*)(${VALUE})`, 'gm');
const QUOTED_ASSIGNMENT = new RegExp(`(["'])(${KEY})\\1([ \\t]*[:=][ \\t]*)(${VALUE})`, 'g');
// `key=value` inside a word, as in a query string or a command line (`--password=…`, `?api_key=…`).
const INLINE_ASSIGNMENT = new RegExp(`(?<![A-Za-z0-9_.-])(-{0,2})(${KEY})(=)([^\\s"'\`,;&]+)`, 'g');

// An assignment's value is replaced only when its key names a secret, and every key that does holds
// one of these words (see namesSecret): text without any of them has no assignment to replace.
const SECRET_KEY_WORD = /key|token|secret|passw|authorization|credential/i;

/** Text with its secrets replaced by the marker, and how many were replaced. */
export interface OutboundRedaction {
  readonly text: string;
  readonly count: number;
}

/** Replaces every secret in text bound for a model with OUTBOUND_SECRET_MARKER and counts them. */
export function replaceOutboundSecrets(text: string): OutboundRedaction {
  let count = 0;
  const mark = (): string => {
    count += 1;
    return OUTBOUND_SECRET_MARKER;
  };
  // A PEM block opens with a run of five dashes, which plain text seldom holds.
  let result = text.includes('-----') ? text.replace(PEM_PRIVATE_KEY, mark) : text;
  if (ANY_SHAPE.test(result)) for (const shape of SHAPES_IN_TEXT) result = result.replace(shape, mark);
  if (!SECRET_KEY_WORD.test(result)) return { text: result, count };
  const assignment = (whole: string, before: string, key: string, separator: string, value: string): string => {
    if (!namesSecret(key) || !looksLikeSecretValue(value)) return whole;
    const quote = value.startsWith('"') || value.startsWith("'") ? value.charAt(0) : '';
    return `${before}${key}${separator}${quote}${mark()}${quote}`;
  };
  result = result.replace(ASSIGNMENT_AT_LINE_START, assignment);
  result = result.replace(QUOTED_ASSIGNMENT, (whole, quote: string, key: string, separator: string, value: string) =>
    assignment(whole, quote, `${key}${quote}`, separator, value),
  );
  // An inline assignment needs an `=`; without one the pass has nothing to look at.
  if (result.includes('=')) result = result.replace(INLINE_ASSIGNMENT, assignment);
  return { text: result, count };
}

/** Whether a key names a secret by its last word or last two words. */
function namesSecret(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  const last = words.at(-1) ?? '';
  const pair = words.slice(-2).join(' ');
  return SECRET_LAST_WORDS.has(last) || SECRET_LAST_PAIRS.has(pair);
}

/**
 * Whether an assigned value could be a credential rather than code or a placeholder: long enough,
 * not a number or a literal, not already the marker, not a call, a reference (`${env:…}`,
 * `process.env.X`) or an empty string.
 */
function looksLikeSecretValue(raw: string): boolean {
  const value = raw.replace(/^["']|["']$/g, '');
  if (value.length < 6 || value.includes(OUTBOUND_SECRET_MARKER)) return false;
  if (/^[0-9.]+$/.test(value) || /^(true|false|null|none|undefined)$/i.test(value)) return false;
  if (value.includes('(') || value.includes('${') || value.startsWith('$') || value.startsWith('<')) return false;
  if (/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/.test(value)) return false;
  return true;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
