import { GitUnreadable } from './git-repository-files.js';

/** The index's entries, and the root tree id its cached-tree extension holds when that is still valid. */
export interface GitIndex {
  readonly entries: readonly GitIndexEntry[];
  readonly rootTree: string | null;
}

const ENTRY_FIXED_BYTES = 62;
const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const SKIP_WORKTREE = 0x4000;

/**
 * Parses an index file, versions 2 and 3 (docs/project-context.md). Version 4 (compressed paths), a
 * split index and a sparse index are not read: they throw `GitUnreadable`, which the turn context
 * reports as `unknown`.
 */
export function parseGitIndex(bytes: Buffer): GitIndex {
  if (bytes.length < 12 + 20 || bytes.toString('latin1', 0, 4) !== 'DIRC') throw new GitUnreadable('not an index file');
  // A DataView reads the fixed fields: Buffer's own readers cost several times more per call, and a
  // repository's index holds ten numbers for each of its thousands of entries.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) throw new GitUnreadable(`index version ${version} is not read`);
  const count = view.getUint32(8);
  const end = bytes.length - 20;
  const entries: GitIndexEntry[] = [];
  let at = 12;
  for (let position = 0; position < count; position += 1) {
    if (at + ENTRY_FIXED_BYTES > end) throw new GitUnreadable('the index is short');
    const flags = view.getUint16(at + 60);
    const extended = (flags & EXTENDED) !== 0;
    if (extended && version < 3) throw new GitUnreadable('an extended entry in a version 2 index');
    const extra = extended ? view.getUint16(at + 62) : 0;
    const pathAt = at + ENTRY_FIXED_BYTES + (extended ? 2 : 0);
    const nul = bytes.indexOf(0, pathAt);
    if (nul < 0 || nul >= end) throw new GitUnreadable('an index path does not end');
    const mode = view.getUint32(at + 24);
    // A sparse index stores whole folders as entries; cw does not expand them.
    if ((mode & 0o170000) === 0o040000) throw new GitUnreadable('a sparse index is not read');
    const path = bytes.toString('utf8', pathAt, nul);
    if (!isWorkTreePath(path)) throw new GitUnreadable('an index path leaves the work tree');
    entries.push(new GitIndexEntry(bytes, view, at, path, flags, extra, mode));
    // Entries are padded with 1–8 NULs to a multiple of eight bytes from their start.
    const length = nul - at;
    at += (length + 8) & ~7;
  }
  let rootTree: string | null = null;
  while (at + 8 <= end) {
    const signature = bytes.toString('latin1', at, at + 4);
    const size = view.getUint32(at + 4);
    const body = at + 8;
    if (body + size > end) throw new GitUnreadable('an index extension is short');
    if (signature === 'TREE') rootTree = cachedRootTree(bytes.subarray(body, body + size));
    // An extension whose name starts with a capital letter is optional; any other (`link`, `sdir`) changes what the entries mean.
    else if (!/^[A-Z]/.test(signature)) throw new GitUnreadable('an index extension cw does not read');
    at = body + size;
  }
  return { entries, rootTree };
}

/**
 * One entry of git's index: a path at a stage, its object and the stat data git saw when it last
 * looked. Its fields are read where they lie: the hex id only when asked, which a clean work tree never does.
 */
export class GitIndexEntry {
  /** 0 when merged; 1–3 during a conflict. */
  readonly stage: number;
  readonly ctimeSeconds: number;
  readonly ctimeNanoseconds: number;
  readonly mtimeSeconds: number;
  readonly mtimeNanoseconds: number;
  readonly ino: number;
  readonly uid: number;
  readonly gid: number;
  readonly size: number;
  /** `assume-unchanged` or `skip-worktree`: git does not look at the work tree for it, and neither does cw. */
  readonly skipWorkTree: boolean;

  constructor(
    private readonly bytes: Buffer,
    view: DataView,
    private readonly at: number,
    readonly path: string,
    flags: number,
    extra: number,
    readonly mode: number,
  ) {
    this.stage = (flags >> 12) & 3;
    this.ctimeSeconds = view.getUint32(at);
    this.ctimeNanoseconds = view.getUint32(at + 4);
    this.mtimeSeconds = view.getUint32(at + 8);
    this.mtimeNanoseconds = view.getUint32(at + 12);
    this.ino = view.getUint32(at + 20);
    this.uid = view.getUint32(at + 28);
    this.gid = view.getUint32(at + 32);
    this.size = view.getUint32(at + 36);
    this.skipWorkTree = (flags & ASSUME_VALID) !== 0 || (extra & SKIP_WORKTREE) !== 0;
  }

  /** The object id, in hex. */
  get id(): string {
    return this.bytes.toString('hex', this.at + 40, this.at + 60);
  }
}

/**
 * Whether an index path names a file inside the work tree, as every index git writes does: relative,
 * `/`-separated, with no empty, `.` or `..` part and no backslash. The work tree is read by joining
 * it to the workspace folder, so a planted index must not name a file outside it (docs/security.md).
 */
export function isWorkTreePath(path: string): boolean {
  // Almost every path has no dot after a slash and none first: one scan answers for it.
  if (path === '' || path.includes('\\') || path.includes('//') || path[0] === '/' || path.endsWith('/')) return false;
  if (path[0] !== '.' && !path.includes('/.')) return true;
  return path.split('/').every((part) => part !== '.' && part !== '..');
}

// The first cached-tree record is the root: an empty path, its entry count (-1 when invalidated),
// its subtree count, then its tree id when valid.
function cachedRootTree(body: Buffer): string | null {
  const newline = body.indexOf(10);
  const header = /^\0(-?\d+) (\d+)$/.exec(body.toString('latin1', 0, Math.max(newline, 0)));
  if (newline < 0 || header === null || Number(header[1]) < 0 || body.length < newline + 21) return null;
  return body.toString('hex', newline + 1, newline + 21);
}
