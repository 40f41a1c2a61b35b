import type { Links, Token } from 'marked';
import { htmlToAnsi } from './highlight-ansi.js';
import { MarkdownStream, renderMarkdown } from './markdown-stream.js';

// The Markdown libraries are loaded only when a reply is rendered on a terminal: a preview, a send
// off a terminal and every JSON format never load them (docs/cli.md, "What a terminal shows";
// docs/performance.md). marked lexes (GFM: tables, task lists, strikethrough); highlight.js 11
// colours fenced code in its common languages, mapped to terminal colours by highlight-ansi.ts.

/** The loaded renderer: a stream for each reply's text, and the whole-text rendering it matches. */
export interface MarkdownRenderer {
  /** The stream one reply's text is rendered through, at `width` columns. */
  readonly stream: (write: (text: string) => void, width: number) => MarkdownStream;
  /** All of `markdown` at once, as a stream of it prints it. */
  readonly render: (markdown: string, width: number) => string;
}

/** Loads marked and highlight.js; `safe` is the core's terminalSafeMultiline. */
export async function loadMarkdown(safe: (text: string) => string): Promise<MarkdownRenderer> {
  // Each an `await import` of its own: the send bundle serves exactly that form (scripts/bundle-cli.mjs).
  const { Lexer } = await import('marked');
  const { default: hljs } = await import('highlight.js/lib/common');
  const highlight = (code: string, language: string): string | null => {
    if (hljs.getLanguage(language) === undefined) return null;
    try {
      return htmlToAnsi(hljs.highlight(code, { language, ignoreIllegals: true }).value);
    } catch {
      return null;
    }
  };
  const lex = (markdown: string, links: Links): Token[] => {
    const lexer = new Lexer({ gfm: true });
    Object.assign(lexer.tokens.links, links);
    return lexer.lex(markdown);
  };
  return {
    stream: (write, width) => new MarkdownStream({ write, width, lex, highlight, safe }),
    render: (markdown, width) => renderMarkdown(markdown, { width, lex, highlight, safe }),
  };
}

/** The columns a terminal stream has (80 when it does not say). */
export function terminalWidth(stream: { readonly columns?: number }): number {
  return stream.columns !== undefined && stream.columns > 0 ? stream.columns : 80;
}
