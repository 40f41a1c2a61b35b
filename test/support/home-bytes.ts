// A byte-level picture of a cw home: every entry's relative path, kind, mode and content hash, and
// every file's modification time. Two equal pictures mean nothing in the home was created, removed,
// rewritten or touched.
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The picture of `home`, sorted by path. */
export async function homeBytes(home: string): Promise<string[]> {
  const lines: string[] = [];
  const entries = (await readdir(home, { recursive: true })).sort();
  for (const entry of entries) {
    const path = join(home, entry);
    const info = await lstat(path);
    if (info.isFile()) {
      const hash = createHash('sha256')
        .update(await readFile(path))
        .digest('hex');
      lines.push(`file ${entry} ${info.mode.toString(8)} ${info.mtimeMs} ${hash}`);
    } else {
      lines.push(`${info.isDirectory() ? 'dir' : 'other'} ${entry} ${info.mode.toString(8)}`);
    }
  }
  return lines;
}
