import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Replaces a file's content atomically: writes a temporary file in the same folder with the same
 * permission bits (and owner, where allowed), flushes it, then renames it over the original. A reader
 * sees the old content or the new one, never a half-written file.
 */
export async function writeFileAtomically(filePath: string, content: string | Uint8Array): Promise<void> {
  const original = await stat(filePath);
  const mode = original.mode & 0o7777;
  const temporary = path.join(
    path.dirname(filePath),
    `.${path.basename(filePath)}.cw-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  const handle = await open(temporary, 'wx', mode);
  let renamed = false;
  try {
    try {
      await handle.writeFile(content);
      // open() applied the umask; chmod sets the original bits exactly.
      await handle.chmod(mode);
      if (
        typeof process.getuid === 'function' &&
        (original.uid !== process.getuid() || original.gid !== process.getgid?.())
      ) {
        await handle.chown(original.uid, original.gid).catch(() => undefined);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, filePath);
    renamed = true;
  } finally {
    if (!renamed) await unlink(temporary).catch(() => undefined);
  }
}
