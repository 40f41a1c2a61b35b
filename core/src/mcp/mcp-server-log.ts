import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeErrorText } from '../redaction/safe-error-text.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { withFileLock } from '../state/file-lock.js';

// What a stdio server writes on stderr can hold anything, so cw keeps only redacted lines, and only
// the last of them: enough to see why a server failed, never a growing file (docs/mcp.md).
const MAX_LOG_LINES = 200;
const MAX_LOG_BYTES = 64 * 1024;
// A line longer than this is cut before it is redacted, so one flood of bytes cannot fill the tail.
const MAX_RAW_LINE_CHARS = 4096;

/** The last lines a server wrote on stderr, each redacted as it arrives. */
export class StderrTail {
  readonly #lines: string[] = [];
  readonly #scrub: (text: string) => string;
  #partial = '';
  #bytes = 0;

  /** `scrub` removes the values cw expanded for this server before the usual redaction. */
  constructor(scrub: (text: string) => string = (text) => text) {
    this.#scrub = scrub;
  }

  /** Takes a chunk of stderr; only whole lines are kept (a last partial one on `end`). */
  push(chunk: Buffer | string): void {
    const text = this.#partial + chunk.toString();
    const parts = text.split(/\r?\n/);
    this.#partial = (parts.pop() ?? '').slice(-MAX_RAW_LINE_CHARS);
    for (const part of parts) this.#add(part);
  }

  /** The stream ended: a last line without a newline counts too. */
  end(): void {
    if (this.#partial !== '') this.#add(this.#partial);
    this.#partial = '';
  }

  #add(raw: string): void {
    if (raw.trim() === '') return;
    const line = safeErrorText(this.#scrub(raw.slice(0, MAX_RAW_LINE_CHARS)));
    this.#lines.push(line);
    this.#bytes += Buffer.byteLength(line, 'utf8') + 1;
    while (this.#lines.length > MAX_LOG_LINES || this.#bytes > MAX_LOG_BYTES) {
      const dropped = this.#lines.shift() ?? '';
      this.#bytes -= Buffer.byteLength(dropped, 'utf8') + 1;
    }
  }

  /** The kept lines, oldest first. */
  lines(): readonly string[] {
    return [...this.#lines];
  }

  /** The last few lines as one line: the cause a failure names. */
  lastWords(count = 3): string | null {
    const last = this.#lines.slice(-count);
    return last.length === 0 ? null : last.join(' | ');
  }
}

/** `$CW_HOME/mcp/logs/<server>.log`: the stderr of the server's last run. */
export function mcpServerLogPath(home: string, server: string): string {
  return join(home, 'mcp', 'logs', `${server}.log`);
}

/** Replaces the server's log with the lines of its last run, atomically and under a lock. */
export async function writeMcpServerLog(home: string, server: string, lines: readonly string[]): Promise<void> {
  const file = mcpServerLogPath(home, server);
  await mkdir(join(home, 'mcp', 'logs'), { recursive: true, mode: 0o700 });
  await withFileLock(file, () => writeFileAtomic(file, lines.length === 0 ? '' : `${lines.join('\n')}\n`));
}

/** The server's log, or null when it has none yet. */
export async function readMcpServerLog(home: string, server: string): Promise<string | null> {
  try {
    return await readFile(mcpServerLogPath(home, server), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
