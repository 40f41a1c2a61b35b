// Labels and error text are split and trimmed on Unicode White_Space. JavaScript's `\s` and
// `String.prototype.trim` differ from that property in two places that matter here: they treat U+FEFF as
// whitespace (so a BOM-prefixed label would be trimmed into an allowlisted one) and they do not treat
// U+0085 as whitespace. This set is White_Space exactly.
const WHITE_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const WHITE_SPACE_RUN = new RegExp(`[${WHITE_SPACE}]+`, 'u');
const LEADING_OR_TRAILING = new RegExp(`^[${WHITE_SPACE}]+|[${WHITE_SPACE}]+$`, 'gu');
const LAST_WHITE_SPACE = new RegExp(`[${WHITE_SPACE}][^${WHITE_SPACE}]*$`, 'u');

/** Trim Unicode White_Space from both ends (U+FEFF is not White_Space, so it is not trimmed). */
export function trimWhiteSpace(text: string): string {
  return text.replace(LEADING_OR_TRAILING, '');
}

/** Split on runs of Unicode White_Space, dropping empty pieces. */
export function splitWhiteSpace(text: string): string[] {
  return text.split(WHITE_SPACE_RUN).filter((piece) => piece !== '');
}

/** The text before its last White_Space character, or `''` when it has none. */
export function beforeLastWhiteSpace(text: string): string {
  const index = text.search(LAST_WHITE_SPACE);
  return index < 0 ? '' : text.slice(0, index);
}

/** UTF-8 length; every redaction bound is in bytes, so a multi-byte character counts as what it costs. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
