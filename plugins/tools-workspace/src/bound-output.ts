import type { ToolLimits } from './tool-types.js';

/** The longest prefix of `bytes` no longer than `max` that does not end inside a UTF-8 character. */
export function utf8Head(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return bytes;
  let end = Math.max(0, max);
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/** The longest suffix of `bytes` no longer than `max` that does not start inside a UTF-8 character. */
export function utf8Tail(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return bytes;
  let start = bytes.length - Math.max(0, max);
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return bytes.subarray(start);
}

/** `bytes` without a UTF-8 character cut off at its end. */
export function utf8Complete(bytes: Buffer): Buffer {
  let start = bytes.length - 1;
  while (start >= 0 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  if (start < 0) return bytes;
  const lead = bytes[start] ?? 0;
  const width = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start < width ? bytes.subarray(0, start) : bytes;
}

/** Lines kept within the limits, and whether any were left out. */
export interface KeptLines {
  readonly lines: readonly string[];
  readonly truncated: boolean;
}

/**
 * Keeps whole lines from the start while both limits hold: at most `outputLines` lines and `outputBytes`
 * bytes (a newline counted after each). A first line longer than the byte limit is cut to it.
 */
export function keepHeadLines(lines: readonly string[], limits: ToolLimits): KeptLines {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line) + 1;
    if (kept.length >= limits.outputLines) return { lines: kept, truncated: true };
    if (bytes + size > limits.outputBytes) {
      if (kept.length === 0) kept.push(utf8Head(Buffer.from(line), limits.outputBytes).toString('utf8'));
      return { lines: kept, truncated: true };
    }
    kept.push(line);
    bytes += size;
  }
  return { lines: kept, truncated: false };
}

/**
 * Collects a stream's bytes keeping only its head and its tail, so a command that prints gigabytes costs
 * no more memory than the output limit. Renders as head, a note of what was left out, and tail.
 */
export class HeadTailBuffer {
  readonly #headCapacity: number;
  readonly #tailCapacity: number;
  readonly #head: Buffer[] = [];
  #headLength = 0;
  #tail: Buffer[] = [];
  #tailLength = 0;
  #total = 0;

  constructor(readonly limits: ToolLimits) {
    const bytes = Math.max(2, Math.floor(limits.outputBytes));
    this.#headCapacity = Math.floor(bytes / 2);
    this.#tailCapacity = bytes - this.#headCapacity;
  }

  /** Every byte pushed so far, kept or not. */
  get totalBytes(): number {
    return this.#total;
  }

  push(chunk: Buffer): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headLength < this.#headCapacity) {
      const taken = rest.subarray(0, this.#headCapacity - this.#headLength);
      this.#head.push(Buffer.from(taken));
      this.#headLength += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0) return;
    this.#tail.push(Buffer.from(rest.subarray(Math.max(0, rest.length - this.#tailCapacity))));
    this.#tailLength += Math.min(rest.length, this.#tailCapacity);
    while (this.#tail.length > 1 && this.#tailLength - (this.#tail[0]?.length ?? 0) >= this.#tailCapacity) {
      this.#tailLength -= this.#tail.shift()?.length ?? 0;
    }
  }

  /** The output within the limits; when something was left out, head and tail around a note. */
  render(): string {
    const head = Buffer.concat(this.#head);
    const tail = Buffer.concat(this.#tail);
    const whole = this.#total <= this.#headCapacity + this.#tailCapacity;
    // The byte limit first: every byte when it fits, else the head and the tail kept while streaming.
    let headLines = splitLines(
      whole ? Buffer.concat([head, tail]).toString('utf8') : utf8Complete(head).toString('utf8'),
    );
    let tailLines = whole ? emptyLines() : splitLines(utf8Tail(tail, this.#tailCapacity).toString('utf8'));
    // Then the line limit: about half of the lines from the head, the rest from the tail.
    const maxLines = Math.max(1, Math.floor(this.limits.outputLines));
    if (whole && headLines.lines.length > maxLines) {
      const front = Math.ceil(maxLines / 2);
      tailLines = {
        lines: headLines.lines.slice(headLines.lines.length - (maxLines - front)),
        terminated: headLines.terminated,
      };
      headLines = { lines: headLines.lines.slice(0, front), terminated: true };
    } else if (!whole && headLines.lines.length + tailLines.lines.length > maxLines) {
      const front = Math.min(headLines.lines.length, Math.ceil(maxLines / 2));
      const back = Math.min(tailLines.lines.length, maxLines - front);
      if (front < headLines.lines.length) headLines = { lines: headLines.lines.slice(0, front), terminated: true };
      tailLines = { lines: tailLines.lines.slice(tailLines.lines.length - back), terminated: tailLines.terminated };
    }
    const headText = joinLines(headLines);
    const tailText = joinLines(tailLines);
    const omitted = this.#total - Buffer.byteLength(headText) - Buffer.byteLength(tailText);
    if (omitted <= 0) return headText + tailText;
    const separator = headText === '' || headText.endsWith('\n') ? '' : '\n';
    return `${headText}${separator}[... ${omitted} bytes omitted ...]\n${tailText}`;
  }
}

/** Text as lines; `terminated` when it ended with a newline (which starts no further line). */
interface Lines {
  readonly lines: readonly string[];
  readonly terminated: boolean;
}

function emptyLines(): Lines {
  return { lines: [], terminated: false };
}

function splitLines(text: string): Lines {
  if (text === '') return emptyLines();
  const terminated = text.endsWith('\n');
  return { lines: (terminated ? text.slice(0, -1) : text).split('\n'), terminated };
}

function joinLines({ lines, terminated }: Lines): string {
  if (lines.length === 0) return '';
  return lines.join('\n') + (terminated ? '\n' : '');
}
