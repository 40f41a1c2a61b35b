/** One wrapped line; `long` marks a single word wider than the wrap width, which the caller places on its own. */
export interface WrappedLine {
  readonly text: string;
  readonly long: boolean;
}

/**
 * Greedy word wrap at `width` code points. A word wider than `width` is cut into `longWidth` pieces
 * flagged `long`, so a renderer can give a digest its own line instead of overflowing the terminal.
 */
export function wrapWords(text: string, width: number, longWidth: number): WrappedLine[] {
  const out: WrappedLine[] = [];
  let current = '';
  for (const word of text.split(' ').filter((part) => part !== '')) {
    const length = [...word].length;
    if (length > width) {
      if (current !== '') out.push({ text: current, long: false });
      current = '';
      const chars = [...word];
      for (let start = 0; start < chars.length; start += longWidth)
        out.push({ text: chars.slice(start, start + longWidth).join(''), long: true });
      continue;
    }
    if (current === '') current = word;
    else if ([...current].length + 1 + length <= width) current = `${current} ${word}`;
    else {
      out.push({ text: current, long: false });
      current = word;
    }
  }
  if (current !== '' || out.length === 0) out.push({ text: current, long: false });
  return out;
}
