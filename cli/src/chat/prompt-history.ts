import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

// The prompts typed in interactive sessions, kept across sessions in one file of the cw home
// (docs/cli.md). It holds what the person typed, which may include a secret pasted by mistake: the
// file is readable by its owner only, bounded, and replaced whole, so a crash never leaves half of it.

/** The most prompts the history keeps; the oldest go first. */
export const MAX_HISTORY_ENTRIES = 500;
/** The longest prompt kept; a longer one (a pasted file) is not worth recalling with Up. */
export const MAX_HISTORY_ENTRY_CHARS = 4_000;

/** The history file in a cw home. */
export function historyFile(home: string): string {
  return join(home, 'chat-history.json');
}

/** The kept prompts, oldest first; an unreadable or malformed file reads as none. */
export async function readHistory(file: string): Promise<string[]> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { version?: unknown; entries?: unknown };
    if (parsed.version !== 1 || !Array.isArray(parsed.entries)) return [];
    return parsed.entries.filter((entry): entry is string => typeof entry === 'string').slice(-MAX_HISTORY_ENTRIES);
  } catch {
    return [];
  }
}

/** The history with `entry` added last: an entry equal to the last is not repeated. */
export function withEntry(entries: readonly string[], entry: string): string[] {
  if (entry.trim() === '' || entry.length > MAX_HISTORY_ENTRY_CHARS || entries.at(-1) === entry) return [...entries];
  return [...entries, entry].slice(-MAX_HISTORY_ENTRIES);
}

/** Replaces the file with `entries`, atomically (a temporary file renamed over it), owner-only. */
export async function writeHistory(file: string, entries: readonly string[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify({ version: 1, entries: entries.slice(-MAX_HISTORY_ENTRIES) })}\n`, {
      mode: 0o600,
    });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
