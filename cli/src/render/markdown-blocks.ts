import type { Token, Tokens } from 'marked';
import { pad, type Style, styled, styledLines, visibleWidth, wrapStyled } from './ansi-text.js';

// One Markdown block (a token of marked's lexer) as terminal lines: headings bold, emphasis in
// italics, code spans and fences in colour, lists with bullets, tables with aligned columns, quotes
// behind a bar, links with their address beside them. No Markdown mark is left on screen, and
// nothing but SGR styling is added (docs/cli.md, "What a terminal shows").

/** What a block is rendered for: the terminal's width, a highlighter for fenced code, the text's guard. */
export interface BlockContext {
  readonly width: number;
  /**
   * The model's text made terminal-safe (the core's terminalSafeMultiline). The lexer decodes
   * character references (`&#27;` becomes ESC), so every string taken from a token crosses it again.
   */
  readonly safe: (text: string) => string;
  /** `code` coloured for `language`, or null when the language is not one it knows. */
  readonly highlight: (code: string, language: string) => string | null;
}

const BOLD = '1';
const DIM = '2';
const ITALIC = '3';
const UNDERLINE = '4';
const STRIKE = '9';
const CODE = '36';
const LINK = '34';

// Lists and quotes give up this many columns of their width; deep nesting never leaves less.
const MIN_WIDTH = 20;

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  '#39': "'",
  nbsp: ' ',
};

type Safe = BlockContext['safe'];

/** A token's text as shown: the few HTML entities Markdown writers use decoded, then made terminal-safe. */
function shown(text: string, safe: Safe): string {
  return safe(text.replace(/&(#?\w+);/g, (whole, name: string) => ENTITIES[name] ?? whole));
}

/** The same on one line: a line break inside a paragraph reads as a space. */
function inlineText(text: string, safe: Safe): string {
  return shown(text, safe).replace(/\n/g, ' ');
}

/** Inline tokens as styled text; `outer` is what the enclosing spans have on. */
export function renderInline(tokens: readonly Token[] | undefined, safe: Safe, outer: readonly Style[] = []): string {
  let out = '';
  for (const token of tokens ?? []) out += inlineToken(token, safe, outer);
  return out;
}

function span(token: Token & { tokens?: Token[] }, safe: Safe, style: Style, outer: readonly Style[]): string {
  const inner = [...outer, style];
  return styled(renderInline(token.tokens, safe, inner), inner, outer);
}

function inlineToken(token: Token, safe: Safe, outer: readonly Style[]): string {
  switch (token.type) {
    case 'strong':
      return span(token, safe, BOLD, outer);
    case 'em':
      return span(token, safe, ITALIC, outer);
    case 'del':
      return span(token, safe, STRIKE, outer);
    case 'codespan':
      return styled(inlineText(token.text, safe), [...outer, CODE], outer);
    case 'br':
      return '\n';
    case 'link': {
      const link = token as Tokens.Link;
      const text = renderInline(link.tokens, safe, [...outer, UNDERLINE, LINK]);
      const label = styled(text, [...outer, UNDERLINE, LINK], outer);
      // The address is shown beside its text: a link's words may say anything.
      return link.href === link.text || link.href === `mailto:${link.text}`
        ? label
        : `${label} ${styled(`(${inlineText(link.href, safe)})`, [...outer, DIM], outer)}`;
    }
    case 'image': {
      const image = token as Tokens.Image;
      return styled(
        `[image: ${inlineText(image.text, safe)}] (${inlineText(image.href, safe)})`,
        [...outer, DIM],
        outer,
      );
    }
    case 'text':
    case 'escape': {
      const text = token as Tokens.Text;
      return text.tokens !== undefined && text.tokens.length > 0
        ? renderInline(text.tokens, safe, outer)
        : inlineText(text.text, safe);
    }
    case 'html':
      return inlineText((token as Tokens.HTML).text, safe);
    case 'checkbox':
      return '';
    default:
      return 'raw' in token && typeof token.raw === 'string' ? inlineText(token.raw, safe) : '';
  }
}

/** One top-level block as lines of at most `width` columns (a fence's long lines excepted). */
export function renderBlock(token: Token, context: BlockContext): string[] {
  const width = Math.max(MIN_WIDTH, context.width);
  switch (token.type) {
    case 'space':
    case 'def':
    // A task item's box is drawn with its bullet.
    case 'checkbox':
      return [];
    case 'heading': {
      const heading = token as Tokens.Heading;
      const styles = heading.depth === 1 ? [BOLD, UNDERLINE] : [BOLD];
      return wrapStyled(styled(renderInline(heading.tokens, context.safe, styles), styles), width);
    }
    case 'paragraph':
      return wrapStyled(renderInline((token as Tokens.Paragraph).tokens, context.safe), width);
    case 'text': {
      const text = token as Tokens.Text;
      return wrapStyled(
        text.tokens === undefined ? inlineText(text.text, context.safe) : renderInline(text.tokens, context.safe),
        width,
      );
    }
    case 'code': {
      const code = token as Tokens.Code;
      const language = (code.lang ?? '').trim().split(/\s+/)[0] ?? '';
      const text = context.safe(code.text);
      const coloured = language === '' ? null : context.highlight(text, language);
      return styledLines(coloured ?? text).map((line) => `  ${line}`);
    }
    case 'blockquote': {
      const quote = token as Tokens.Blockquote;
      const bar = styled('│', [DIM]);
      return blocks(quote.tokens, { ...context, width: width - 2 }, true).map((line) =>
        line === '' ? bar : `${bar} ${line}`,
      );
    }
    case 'list':
      return list(token as Tokens.List, { ...context, width });
    case 'table':
      return table(token as Tokens.Table, width, context.safe);
    case 'hr':
      return [styled('─'.repeat(Math.min(width, 40)), [DIM])];
    case 'html':
      return context
        .safe((token as Tokens.HTML).text)
        .replace(/\n+$/, '')
        .split('\n');
    default:
      return 'raw' in token && typeof token.raw === 'string'
        ? context.safe(token.raw).replace(/\n+$/, '').split('\n')
        : [];
  }
}

/** Blocks one after another; `spaced` puts a blank line between them. */
function blocks(tokens: readonly Token[], context: BlockContext, spaced: boolean): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    const lines = renderBlock(token, context);
    if (lines.length === 0) continue;
    if (spaced && out.length > 0) out.push('');
    out.push(...lines);
  }
  return out;
}

function list(token: Tokens.List, context: BlockContext): string[] {
  const out: string[] = [];
  const first = typeof token.start === 'number' ? token.start : 1;
  const markers = token.items.map((item, index) => {
    const bullet = token.ordered ? `${first + index}.` : '•';
    return item.task ? `${bullet} ${item.checked ? '☑' : '☐'}` : bullet;
  });
  const indent = Math.max(...markers.map((marker) => visibleWidth(marker))) + 1;
  token.items.forEach((item, index) => {
    // A loose list's items stand apart, as separate paragraphs would.
    if (index > 0 && token.loose) out.push('');
    const lines = blocks(item.tokens, { ...context, width: context.width - indent }, item.loose);
    const marker = markers[index] ?? '';
    lines.forEach((line, at) => {
      out.push(
        at === 0 ? `${pad(marker, indent - 1, null)} ${line}` : line === '' ? '' : `${' '.repeat(indent)}${line}`,
      );
    });
    if (lines.length === 0) out.push(marker);
  });
  return out;
}

function table(token: Tokens.Table, width: number, safe: Safe): string[] {
  const header = token.header.map((cell) => renderInline(cell.tokens, safe, [BOLD]));
  const rows = token.rows.map((row) => row.map((cell) => renderInline(cell.tokens, safe)));
  const columns = header.length;
  const widths = header.map((cell, column) =>
    Math.max(1, visibleWidth(cell), ...rows.map((row) => visibleWidth(row[column] ?? ''))),
  );
  // Each column gives up a column at a time, the widest first, until the table fits.
  const room = width - 3 * (columns - 1);
  while (widths.reduce((sum, each) => sum + each, 0) > room) {
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= 3) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  const line = (cells: readonly string[], styles: readonly Style[]): string[] => {
    const wrapped = cells.map((cell, column) =>
      wrapStyled(styles.length > 0 ? styled(cell, styles) : cell, widths[column] ?? 1),
    );
    const height = Math.max(1, ...wrapped.map((lines) => lines.length));
    const out: string[] = [];
    for (let at = 0; at < height; at++)
      out.push(
        wrapped
          .map((lines, column) => pad(lines[at] ?? '', widths[column] ?? 1, token.align[column] ?? null))
          .join(` ${styled('│', [DIM])} `)
          .trimEnd(),
      );
    return out;
  };
  const rule = styled(widths.map((each) => '─'.repeat(each)).join('─┼─'), [DIM]);
  return [...line(header, [BOLD]), rule, ...rows.flatMap((row) => line(row, []))];
}
