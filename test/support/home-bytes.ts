// What a folder holds, byte for byte: every entry's relative path with the SHA-256 of its content
// (folders marked as such), so "preview changed nothing" is a plain equality.
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Every entry under `folder`, sorted, as `path` for a folder and `path sha256` for a file. */
export async function folderBytes(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const lines = await Promise.all(
    entries.map(async (entry) => {
      const path = join(entry.parentPath, entry.name).slice(folder.length + 1);
      if (!entry.isFile()) return `${path}/`;
      const digest = createHash('sha256')
        .update(await readFile(join(entry.parentPath, entry.name)))
        .digest('hex');
      return `${path} ${digest}`;
    }),
  );
  return lines.sort();
}
