// Whole escape sequences go first, so that `ESC[31m` leaves nothing behind instead of a stray `[31m`:
// CSI (7-bit and C1 forms), and the string commands OSC/DCS/SOS/PM/APC up to BEL or ST.
const CSI = String.raw`(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]`;
const STRING_COMMAND = String.raw`(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)`;
const ESCAPE_SEQUENCE = new RegExp(`${CSI}|${STRING_COMMAND}`, 'g');

// Anything a terminal treats as a line or page break, plus tab, becomes one space.
const LINE_BREAK = /\r\n|[\t\n\v\f\r\u0085\u2028\u2029]/g;

// Remaining C0/C1 controls, format characters (bidi embeddings, overrides and isolates, zero-width
// characters, BOM, soft hyphen, tag characters) and other default-ignorable code points: none of them
// should move the cursor, reorder text or hide from the reader.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

// For multi-line text only the characters that act on the terminal or reorder text go. ZWJ, ZWNJ and
// variation selectors stay: emoji sequences and several scripts need them to render correctly.
const MULTILINE_BREAK = /\r\n|[\v\f\r\u0085\u2028\u2029]/g;
const MULTILINE_REMOVED = new RegExp(
  String.raw`[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u00ad\u061c\u200b\u200e\u200f` +
    String.raw`\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]`,
  'gu',
);

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

// For cw's own fixed messages after a redacted value has been interpolated. Idempotent, since its
// output contains none of what it removes.
/** One line with nothing in it that can drive the terminal, reorder text or hide from the reader. */
export function terminalSafe(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(LINE_BREAK, ' ')
    .replace(INVISIBLE, '')
    .replace(LONE_SURROGATE, '\ufffd');
}

// For text cw shows on purpose, such as a model's reply; it does not redact anything. A bare CR would
// let later text overwrite earlier text on the same line, so it becomes a newline.
/** Like terminalSafe, but keeps line breaks and tabs: for multi-line text shown on purpose. */
export function terminalSafeMultiline(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(MULTILINE_BREAK, '\n')
    .replace(MULTILINE_REMOVED, '')
    .replace(LONE_SURROGATE, '\ufffd');
}
