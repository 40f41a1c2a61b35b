// cw's own styling of rendered Markdown: SGR codes only, and a wrap that knows them (wrap-text.ts
// wraps plain text; this one leaves the codes out of the count and carries a style across lines).
// Every string the renderer takes from the model is terminal-safe (markdown-blocks.ts), so every
// escape in what this wraps is one of these (docs/cli.md, "What a terminal shows").

const SGR = /\u001b\[[0-9;]*m/g;
const RESET = '\u001b[0m';

/** An SGR style: the parameters that turn it on (`1` bold, `36` cyan). */
export type Style = string;

/** `text` with `styles` on, then everything off and `outer` (the enclosing styles) on again. */
export function styled(text: string, styles: readonly Style[], outer: readonly Style[] = []): string {
  if (text === '' || styles.length === 0) return text;
  return `${codes(styles)}${text}${RESET}${codes(outer)}`;
}

function codes(styles: readonly Style[]): string {
  return styles.length === 0 ? '' : `\u001b[${styles.join(';')}m`;
}

/** The text a reader sees: without cw's styling. */
export function visible(text: string): string {
  return text.replace(SGR, '');
}

/** How many columns `text` takes (one per code point; the styling takes none). */
export function visibleWidth(text: string): number {
  return [...visible(text)].length;
}

/** The styles on at the end of `text`, read from its SGR codes. */
function stylesAfter(text: string, before: readonly Style[]): Style[] {
  let active = [...before];
  for (const match of text.matchAll(SGR)) {
    const parameters = match[0].slice(2, -1);
    if (parameters === '' || parameters === '0') active = [];
    else active.push(parameters);
  }
  return active;
}

/** `text` split at its line breaks, each line closing its styles and the next opening them again. */
export function styledLines(text: string): string[] {
  const out: string[] = [];
  let active: Style[] = [];
  for (const line of text.split('\n')) {
    const after = stylesAfter(line, active);
    out.push(`${codes(active)}${line}${after.length > 0 ? RESET : ''}`);
    active = after;
  }
  return out;
}

/**
 * Greedy word wrap of styled text at `width` columns; `\n` in the text breaks a line. Each line
 * ends with its styles off and the next starts with them on again, so a prefix a caller puts before
 * a line (a list's indent, a quote's bar) is never styled by the text before it.
 */
export function wrapStyled(text: string, width: number): string[] {
  const out: string[] = [];
  let active: Style[] = [];
  const push = (line: string): void => {
    const after = stylesAfter(line, active);
    const start = codes(active);
    out.push(`${start}${line}${after.length > 0 ? RESET : ''}`);
    active = after;
  };
  for (const paragraphLine of text.split('\n')) {
    let current = '';
    let currentWidth = 0;
    for (const word of paragraphLine.split(' ')) {
      const wordWidth = visibleWidth(word);
      if (wordWidth === 0 && visible(word) === '' && word !== '') {
        // Only styling: it belongs to what follows or closes what came before, on this line.
        current += word;
        continue;
      }
      if (current === '' || currentWidth === 0) {
        current += word;
        currentWidth += wordWidth;
      } else if (currentWidth + 1 + wordWidth <= width) {
        current += ` ${word}`;
        currentWidth += 1 + wordWidth;
      } else {
        push(current);
        current = word;
        currentWidth = wordWidth;
      }
      // A word wider than the line is cut at the width, so nothing runs past the terminal's edge.
      while (currentWidth > width) {
        const [head, tail] = cutAt(current, width);
        push(head);
        current = tail;
        currentWidth = visibleWidth(tail);
      }
    }
    push(current);
  }
  return out;
}

/** `text` cut after `columns` visible code points, its codes kept on the side they were on. */
function cutAt(text: string, columns: number): [string, string] {
  let seen = 0;
  let index = 0;
  while (index < text.length && seen < columns) {
    const code = text[index] === '\u001b' ? /^\u001b\[[0-9;]*m/.exec(text.slice(index)) : null;
    if (code !== null) {
      index += code[0].length;
      continue;
    }
    const point = text.codePointAt(index) ?? 0;
    index += point > 0xffff ? 2 : 1;
    seen += 1;
  }
  return [text.slice(0, index), text.slice(index)];
}

/** `line` padded with spaces to `width` visible columns, on the side `align` says. */
export function pad(line: string, width: number, align: 'left' | 'right' | 'center' | null): string {
  const gap = Math.max(0, width - visibleWidth(line));
  if (align === 'right') return `${' '.repeat(gap)}${line}`;
  if (align === 'center') return `${' '.repeat(Math.floor(gap / 2))}${line}${' '.repeat(gap - Math.floor(gap / 2))}`;
  return `${line}${' '.repeat(gap)}`;
}
