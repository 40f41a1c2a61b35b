// The model's text arrives in pieces that may cut an escape sequence, a CR LF or a surrogate pair in
// two; made terminal-safe piece by piece, the halves would each pass as harmless text. This holds
// back the end of what arrived while it could still be such a start, so what comes out is exactly
// what the whole text made terminal-safe would be (terminal-safe-stream.test.ts checks every cut).

// The start of an escape sequence that a later piece could still complete: ESC alone, a CSI so far,
// or a string command (OSC, DCS, …) not yet terminated.
const OPEN_ESCAPE = [
  /^\u001b$/,
  /^(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*$/,
  /^(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*\u001b?$/,
];
const INTRODUCER = /[\u001b\u009b\u0090\u0098\u009d\u009e\u009f]/g;
// A CR the next piece's LF would join (escape sequences between them go first, as the whole text's
// rule removes them before it joins CR LF), or the first half of a surrogate pair.
const OPEN_END =
  /(?:\r(?:(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c))*|[\ud800-\udbff])$/;

// An escape that never closes is not held for ever: past this, it is released (and stripped as far
// as the whole text's rule strips it).
const MAX_HELD = 64 * 1024;

/** Terminal-safes streamed text; `push` returns what is safe to use now, `end` the rest. */
export class TerminalSafeStream {
  #held = '';

  constructor(private readonly safe: (text: string) => string) {}

  /** Adds a piece; returns the terminal-safe text of what can no longer change. */
  push(piece: string): string {
    this.#held += piece;
    const cut = this.#cut();
    if (cut === 0) return '';
    const ready = this.#held.slice(0, cut);
    this.#held = this.#held.slice(cut);
    return this.safe(ready);
  }

  /** The terminal-safe text of whatever is still held. */
  end(): string {
    const rest = this.#held;
    this.#held = '';
    return rest === '' ? '' : this.safe(rest);
  }

  /** Where the held text may be cut: before an escape still open, a lone CR or half a surrogate pair. */
  #cut(): number {
    const held = this.#held;
    if (held.length > MAX_HELD) return held.length;
    let cut = held.length;
    for (const match of held.matchAll(INTRODUCER))
      if (OPEN_ESCAPE.some((open) => open.test(held.slice(match.index)))) {
        cut = match.index;
        break;
      }
    const end = OPEN_END.exec(held.slice(0, cut));
    return end === null ? cut : end.index;
  }
}
