import { fstatSync } from 'node:fs';
import { UsageError } from './usage-error.js';

/** The largest prompt read from stdin: far above any typed prompt, small enough to refuse a stray pipe of data. */
export const MAX_STDIN_PROMPT_BYTES = 1024 * 1024;

/**
 * The prompt of a command: `--prompt -` reads stdin; no `--prompt` with a pipe or a file on stdin
 * (`echo hi | cw send`, `cw send < task.md`) reads it too, and an empty one counts as no prompt. A
 * terminal, /dev/null or a socket (how a parent process that writes nothing wires it) is never read.
 * The bytes are kept as given; NUL bytes, invalid UTF-8 and more than 1 MiB are refused.
 */
export async function promptFrom(
  given: string | undefined,
  usage: string,
  // Read from process.stdin only when it is read: making that stream costs a command that never does.
  stdin?: NodeJS.ReadableStream & { fd?: number },
): Promise<string | undefined> {
  if (given === '-') {
    const text = await readStdin(stdin ?? process.stdin, usage);
    if (text === '') throw new UsageError('`--prompt -` read nothing from stdin: pipe the prompt text in.', usage);
    return text;
  }
  if (given !== undefined || !stdinIsData()) return given;
  const text = await readStdin(stdin ?? process.stdin, usage);
  return text === '' ? undefined : text;
}

/** Whether stdin holds data to read (a pipe or a file), not a terminal, /dev/null or a socket. */
export function stdinIsData(): boolean {
  try {
    const info = fstatSync(0);
    return info.isFIFO() || info.isFile();
  } catch {
    return false;
  }
}

async function readStdin(stdin: NodeJS.ReadableStream, usage: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > MAX_STDIN_PROMPT_BYTES)
      throw new UsageError('the prompt on stdin is larger than 1 MiB; pass a shorter prompt or @file.', usage);
    chunks.push(bytes);
  }
  const bytes = Buffer.concat(chunks);
  if (bytes.includes(0))
    throw new UsageError('the prompt on stdin holds a NUL byte: pass text, not binary data.', usage);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UsageError('the prompt on stdin is not valid UTF-8 text.', usage);
  }
}
