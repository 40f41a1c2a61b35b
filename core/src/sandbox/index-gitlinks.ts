/**
 * The paths a git index lists as submodules (gitlinks, mode 160000). The user's `git status` runs
 * git inside each of them, with that checkout's own config, so the sandbox keeps their `.git`
 * read-only and refuses an index that adds one (docs/security.md, "The user's own git stays theirs").
 * Reads index versions 2, 3 and 4 (git's index-format documentation); null when the bytes are not
 * one of them, so a caller can fail closed.
 */
export function indexGitlinks(index: Buffer, hashBytes: 20 | 32): string[] | null {
  if (index.length < 12 || index.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = index.readUInt32BE(4);
  const count = index.readUInt32BE(8);
  if (version < 2 || version > 4) return null;
  const links: string[] = [];
  let at = 12;
  let previous = '';
  for (let entry = 0; entry < count; entry += 1) {
    const flagsAt = at + 40 + hashBytes;
    if (flagsAt + 2 > index.length) return null;
    const mode = index.readUInt32BE(at + 24);
    const flags = index.readUInt16BE(flagsAt);
    let cursor = flagsAt + 2;
    // Version 3 and later: an extended-flags word follows when the flag says so.
    if (version >= 3 && (flags & 0x4000) !== 0) cursor += 2;
    let path: string;
    if (version === 4) {
      // The path is the previous one less `strip` bytes, then the rest up to a NUL; no padding.
      let strip = 0;
      let byte = 0x80;
      let first = true;
      while ((byte & 0x80) !== 0) {
        if (cursor >= index.length) return null;
        byte = index[cursor] as number;
        cursor += 1;
        strip = first ? byte & 0x7f : ((strip + 1) << 7) | (byte & 0x7f);
        first = false;
      }
      const end = index.indexOf(0, cursor);
      if (end === -1 || strip > previous.length) return null;
      path = previous.slice(0, previous.length - strip) + index.toString('latin1', cursor, end);
      at = end + 1;
    } else {
      const end = index.indexOf(0, cursor);
      if (end === -1) return null;
      path = index.toString('latin1', cursor, end);
      // Each entry is padded with NULs to a multiple of eight bytes (one to eight of them).
      at += Math.floor((end - at) / 8) * 8 + 8;
    }
    if (at > index.length) return null;
    previous = path;
    if ((mode & 0o170000) === 0o160000) links.push(Buffer.from(path, 'latin1').toString('utf8'));
  }
  return links;
}
