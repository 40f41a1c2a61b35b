import { looksIdentifying, looksOpaque } from './opaque.js';
import { redactSecrets } from './redact-secrets.js';
import { beforeLastWhiteSpace, splitWhiteSpace, utf8Length } from './unicode-whitespace.js';

/** Stands for a word that was withheld. */
export const REDACTED = '<redacted>';
/** Stands for a file-system path that was withheld. */
export const PATH_REDACTED = '<path-redacted>';
/** The whole text when nothing printable was left. */
export const UNAVAILABLE = '<unavailable>';
/** Marks text that was cut at the length bound. */
export const ELLIPSIS = '\u2026';

const MAX_ERROR_BYTES = 200;
const MAX_WORD_BYTES = 40;
const MAX_SCHEME_BYTES = 16;
const MAX_HOST_BYTES = 80;
// A bound on the whole word, edge punctuation included: every output word stays shorter than the
// budget, so truncation always keeps at least one whole word.
const MAX_TOKEN_BYTES = 80;
// Output is at most 200 bytes, so reading more than this of a huge error page only costs time.
const MAX_INPUT_CHARS = 65_536;
// Convergence takes two or three passes in practice; the cap only guards against a rule bug.
const MAX_PASSES = 16;

// Our own markers are passed through untouched so that a second pass over our output is a no-op
// (the word allowlist alone would turn `<path-redacted>` and `<unavailable>` into `<redacted>`).
const MARKERS: ReadonlySet<string> = new Set([REDACTED, PATH_REDACTED, UNAVAILABLE, ELLIPSIS]);

const EDGE_PUNCTUATION = '.,;:!?()';
const CORE_CHARS = /^[A-Za-z0-9_.-]+$/;
const SCHEME_CHARS = /^[A-Za-z0-9+.-]+$/;
const HOST_CHARS = /^[A-Za-z0-9.:-]+$/;
// Unicode general category Cc: C0 controls, DEL and C1 controls.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function isEdge(char: string): boolean {
  return EDGE_PUNCTUATION.includes(char);
}

const QUOTE_PAIRS: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ["'", "'"],
  ['`', '`'],
  ['\u201c', '\u201d'],
  ['\u2018', '\u2019'],
  ['\u00ab', '\u00bb'],
  ['\u300c', '\u300d'],
]);

function endsWithQuote(token: string, close: string): boolean {
  return token.replace(/[.,;:!?)\]}]+$/, '').endsWith(close);
}

// Judging each word alone would withhold only the two words touching a quote in
// `"user said: my password is hunter2"` and print `said: my is`. A quoted span is someone's text, so
// the whole span is withheld: from a word that opens a quote to the word that closes it, or to the end
// when it never closes (quoted text cut short upstream). A bare quote with no partner, as in
// `Unexpected token ' in JSON`, is left to the word rules. Returns the index of the span's last word,
// or -1 when the word at `index` does not open a multi-word span.
function quotedSpanEnd(tokens: readonly string[], index: number): number {
  const token = tokens[index] ?? '';
  const start = token.search(/[^([{]/);
  const close = QUOTE_PAIRS.get(token.charAt(start));
  if (close === undefined) return -1;
  const rest = token.slice(start + 1);
  const bare = /^[.,;:!?)\]}]*$/.test(rest);
  if (!bare && endsWithQuote(rest, close)) return -1;
  for (let next = index + 1; next < tokens.length; next += 1) {
    if (endsWithQuote(tokens[next] ?? '', close)) return next;
  }
  return bare ? -1 : tokens.length - 1;
}

// `scheme://host/<path-redacted>`: the host of a failing endpoint is often the whole diagnosis, the path
// and query are where deployment names and keys live, and userinfo never survives.
function safeUrlToken(token: string): string {
  const marker = token.indexOf('://');
  const scheme = token.slice(0, marker);
  const authority = token.slice(marker + 3).split(/[/?#]/, 1)[0] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  const schemeOk = scheme !== '' && utf8Length(scheme) <= MAX_SCHEME_BYTES && SCHEME_CHARS.test(scheme);
  const hostOk = host !== '' && utf8Length(host) <= MAX_HOST_BYTES && HOST_CHARS.test(host) && !looksOpaque(host);
  return schemeOk && hostOk ? `${scheme}://${host}/${PATH_REDACTED}` : REDACTED;
}

function safeWordToken(token: string): string {
  if (utf8Length(token) > MAX_TOKEN_BYTES) return REDACTED;
  let first = 0;
  while (first < token.length && isEdge(token.charAt(first))) first += 1;
  if (first === token.length) return token;
  let last = token.length - 1;
  while (isEdge(token.charAt(last))) last -= 1;
  const core = token.slice(first, last + 1);
  const ordinary =
    utf8Length(core) <= MAX_WORD_BYTES &&
    !core.includes('..') &&
    CORE_CHARS.test(core) &&
    !looksOpaque(core) &&
    !looksIdentifying(core);
  return ordinary ? token : REDACTED;
}

function safeToken(token: string): string {
  if (MARKERS.has(token)) return token;
  if (CONTROL.test(token)) return REDACTED;
  if (token.includes('://')) return safeUrlToken(token);
  if (token.startsWith('/') || token.startsWith('~/') || token.includes('\\')) return PATH_REDACTED;
  if (/["'`]/.test(token)) return REDACTED;
  return safeWordToken(token);
}

// Cutting at byte 200 wherever that falls could split a marker or leave a half word that a second
// pass rewrites. Cutting between words, with `…` as a word of its own, keeps the output a fixed point.
function bound(words: readonly string[]): string {
  const joined = words.join(' ');
  if (utf8Length(joined) <= MAX_ERROR_BYTES) return joined;
  let kept = '';
  for (const word of words) {
    const next = kept === '' ? word : `${kept} ${word}`;
    if (utf8Length(next) > MAX_ERROR_BYTES - 1) break;
    kept = next;
  }
  return kept === '' ? ELLIPSIS : `${kept} ${ELLIPSIS}`;
}

function allowlistPass(text: string, cut: boolean): string {
  const tokens = splitWhiteSpace(redactSecrets(text));
  const words: string[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const spanEnd = quotedSpanEnd(tokens, index);
    const safe = spanEnd > index ? REDACTED : safeToken(tokens[index] ?? '');
    if (spanEnd > index) index = spanEnd;
    if (safe === REDACTED && words[words.length - 1] === REDACTED) continue;
    words.push(safe);
  }
  if (cut && words[words.length - 1] !== ELLIPSIS) words.push(ELLIPSIS);
  return words.length === 0 ? UNAVAILABLE : bound(words);
}

// Only the head of a huge text is read. The cut goes back to a word boundary: a fragment of a longer
// word could be a key cut below the length at which it is recognised.
function head(text: string): { readonly text: string; readonly cut: boolean } {
  if (text.length <= MAX_INPUT_CHARS) return { text, cut: false };
  return { text: beforeLastWhiteSpace(text.slice(0, MAX_INPUT_CHARS + 1)), cut: true };
}

// Ordinary words, URL hosts and punctuation survive; paths, quoted spans, secrets and odd words become
// markers.
//
// One pass alone is not idempotent: flattening lines or replacing a word can move the "first `:` or
// `=` of the line" that the keyed-secret rule looks at, so a second pass may withhold more. We repeat
// the pass until it changes nothing. Every pass only
// withholds more, so this converges (in at most three passes in fuzzing), and the result is a fixed
// point by construction; the pass cap falls back to `<redacted>`, itself a fixed point.
/** Outside error text reduced to a safe single line of at most 200 bytes plus `…`; idempotent. */
export function safeErrorText(text: string): string {
  const input = head(text);
  let current = allowlistPass(input.text, input.cut);
  for (let pass = 1; pass < MAX_PASSES; pass += 1) {
    const next = allowlistPass(current, false);
    if (next === current) return current;
    current = next;
  }
  return REDACTED;
}
