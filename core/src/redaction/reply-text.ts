// Escape sequences and controls that could drive the terminal; newline and tab are kept for prose.
const ESCAPE_SEQUENCE =
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The model's reply, printed for the person who asked for it: multi-line prose survives, but nothing
 * in it can move the cursor, recolour the terminal or reorder text.
 */
export function terminalSafeMultiline(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(/\r\n?/g, '\n').replace(CONTROLS, '');
}
