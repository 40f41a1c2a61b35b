import type { Links, Token, Tokens } from 'marked';
import { type BlockContext, renderBlock } from './markdown-blocks.js';
import { TerminalSafeStream } from './terminal-safe-stream.js';

// A reply rendered as it streams, without redrawing it: each top-level block is printed once the
// lexer has read a whole line of the next block after it (a block followed by another block with
// content is final; only the last can still grow), the open block is held, and `end` prints it. Nothing printed is ever moved over
// or printed again (docs/cli.md, "What a terminal shows").

/** The parts of marked the stream uses: its lexer, given the link definitions already read. */
export type Lex = (markdown: string, links: Links) => Token[];

/** Where rendered lines go, and what renders them. */
export interface MarkdownTarget extends BlockContext {
  readonly write: (text: string) => void;
  readonly lex: Lex;
}

/** One reply's text, rendered block by block as it arrives. */
export class MarkdownStream {
  readonly #safe: TerminalSafeStream;
  // Terminal-safe text not yet printed: the open block, and what may still join it.
  #pending = '';
  #printed = false;
  // Link definitions in blocks already printed, for reference links in the blocks after them.
  readonly #links: Links = {};

  constructor(private readonly target: MarkdownTarget) {
    this.#safe = new TerminalSafeStream(target.safe);
  }

  /** Whether nothing is held: no text has arrived since the last block printed. */
  get idle(): boolean {
    return this.#pending.trim() === '';
  }

  /** Adds a piece of the reply; prints the blocks it completed. */
  push(piece: string): void {
    const text = this.#safe.push(piece);
    if (text === '') return;
    this.#pending += text;
    // Only whole lines are read: a line still arriving can change what it is ("1" may become "1. item",
    // which would continue the list before it), so a block is final once a whole line of content
    // after it has arrived.
    if (!text.includes('\n')) return;
    const whole = this.#pending.slice(0, this.#pending.lastIndexOf('\n') + 1);
    const tokens = this.target.lex(whole, this.#links);
    // The last block with content may still grow; the blank space after it may still join it.
    const open = tokens.findLastIndex((token) => /\S/.test(token.raw));
    if (open <= 0) return;
    // The blocks are cut off by their lengths: if the lexer's pieces do not add up to the text, it
    // is held whole and printed at the end instead.
    if (tokens.reduce((length, token) => length + token.raw.length, 0) !== whole.length) return;
    let consumed = 0;
    for (const token of tokens.slice(0, open)) {
      this.#print(token);
      consumed += token.raw.length;
    }
    this.#pending = this.#pending.slice(consumed);
  }

  /** Prints what is held: the reply (or this part of it) is over. */
  end(): void {
    this.#pending += this.#safe.end();
    const text = this.#pending;
    this.#pending = '';
    if (text.trim() === '') return;
    for (const token of this.target.lex(text, this.#links)) this.#print(token);
  }

  #print(token: Token): void {
    if (token.type === 'def') {
      const def = token as Tokens.Def;
      // The first definition of a label wins, as in the whole text.
      this.#links[def.tag] ??= { href: def.href, title: def.title };
    }
    const lines = renderBlock(token, this.target);
    if (lines.length === 0) return;
    // Blocks stand apart by one blank line, however many the model wrote.
    this.target.write(`${this.#printed ? '\n' : ''}${lines.join('\n')}\n`);
    this.#printed = true;
  }
}

/** The whole of `markdown` rendered at once: what a stream of it prints, however it was cut. */
export function renderMarkdown(markdown: string, target: Omit<MarkdownTarget, 'write'>): string {
  const blocks = target
    .lex(target.safe(markdown), {})
    .map((token) => renderBlock(token, target))
    .filter((lines) => lines.length > 0);
  return blocks.map((lines) => `${lines.join('\n')}\n`).join('\n');
}
