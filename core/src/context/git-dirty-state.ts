import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, readlinkSync, type Stats } from 'node:fs';
import { sep } from 'node:path';
import { type GitIndexEntry, parseGitIndex } from './git-index-file.js';
import { type GitObjectStore, openObjectStore } from './git-object-store.js';
import {
  GitUnreadable,
  gitHead,
  gitRepositoryFolders,
  indexFile,
  objectsFolder,
  readRegularFile,
} from './git-repository-files.js';

/** Whether a repository's tracked files differ from HEAD: `unknown` when cw could not say in time. */
export type GitDirtyState = 'clean' | 'dirty' | 'unknown';

/** How long the turn context reads git's files before it says `unknown` (docs/project-context.md). */
export const GIT_STATUS_TIMEOUT_MS = 2000;

const GITLINK = 0o160000;
const SYMLINK = 0o120000;
const REGULAR = 0o100000;
const TYPE_MASK = 0o170000;
const MAX_INDEX_BYTES = 1 << 30;

/**
 * Whether tracked files differ from HEAD, staged or not, as `git status --porcelain
 * --untracked-files=no --ignore-submodules=all` would say, read from git's own files: no git
 * process, so nothing the workspace planted in `.git` (a filter, an fsmonitor, a hook, a config
 * include) runs outside the sandbox (docs/security.md). Untracked files and submodules are not
 * looked at; past `timeoutMs`, or for anything cw does not read, the answer is `unknown`. Reads only.
 */
export async function gitDirtyState(
  workspace: string,
  options: { readonly timeoutMs?: number } = {},
): Promise<GitDirtyState> {
  const deadline = Date.now() + (options.timeoutMs ?? GIT_STATUS_TIMEOUT_MS);
  try {
    return readDirtyState(workspace, () => {
      if (Date.now() > deadline) throw new GitUnreadable('out of time');
    });
  } catch {
    return 'unknown';
  }
}

function readDirtyState(workspace: string, checkTime: () => void): GitDirtyState {
  const folders = gitRepositoryFolders(workspace);
  if (folders === null) return 'unknown';
  const indexPath = indexFile(folders);
  const indexBytes = readRegularFile(indexPath, { maxBytes: MAX_INDEX_BYTES });
  const index = indexBytes === null ? { entries: [], rootTree: null } : parseGitIndex(indexBytes);
  const indexTime = indexBytes === null ? null : lstatSync(indexPath);
  checkTime();
  const head = gitHead(folders);
  const store = openObjectStore(objectsFolder(folders));
  try {
    const headTree = head.kind === 'unborn' ? null : commitTree(store.read(head.id).data);
    if (index.rootTree === null || index.rootTree !== headTree) {
      if (stagedChanges(index.entries, headTree, store, checkTime)) return 'dirty';
    }
  } finally {
    store.close();
  }
  const tree = new WorkTree(workspace, folders.fileMode);
  for (const entry of index.entries) {
    checkTime();
    if (entry.stage !== 0) return 'dirty';
    if ((entry.mode & TYPE_MASK) === GITLINK || entry.skipWorkTree) continue;
    if (tree.changed(entry, indexTime, checkTime)) return 'dirty';
  }
  return 'clean';
}

function commitTree(commit: Buffer): string {
  const tree = /^tree ([0-9a-f]{40})\n/.exec(commit.toString('latin1', 0, 46))?.[1];
  if (tree === undefined) throw new GitUnreadable('a commit names no tree');
  return tree;
}

/** Index entries against HEAD's tree, submodules left out: true when any path, mode or object differs. */
function stagedChanges(
  entries: readonly GitIndexEntry[],
  headTree: string | null,
  store: GitObjectStore,
  checkTime: () => void,
): boolean {
  const committed = new Map<string, string>();
  if (headTree !== null) collectTree(store, headTree, '', committed, checkTime);
  let staged = 0;
  for (const entry of entries) {
    if (entry.stage !== 0) return true;
    if ((entry.mode & TYPE_MASK) === GITLINK) continue;
    staged += 1;
    if (committed.get(entry.path) !== `${normalMode(entry.mode)} ${entry.id}`) return true;
  }
  return staged !== committed.size;
}

function normalMode(mode: number): string {
  if ((mode & TYPE_MASK) === SYMLINK) return '120000';
  return mode & 0o111 ? '100755' : '100644';
}

function collectTree(
  store: GitObjectStore,
  id: string,
  prefix: string,
  into: Map<string, string>,
  checkTime: () => void,
): void {
  checkTime();
  const tree = store.read(id);
  if (tree.type !== 'tree') throw new GitUnreadable('a tree entry is not a tree');
  const data = tree.data;
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(32, at);
    const nul = data.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > data.length) throw new GitUnreadable('a tree is malformed');
    const mode = Number.parseInt(data.toString('latin1', at, space), 8);
    const path = prefix + data.toString('utf8', space + 1, nul);
    const child = data.toString('hex', nul + 1, nul + 21);
    at = nul + 21;
    if ((mode & TYPE_MASK) === 0o040000) collectTree(store, child, `${path}/`, into, checkTime);
    else if ((mode & TYPE_MASK) !== GITLINK) into.set(path, `${normalMode(mode)} ${child}`);
  }
}

/** The work tree, looked at through `lstat` only: a link is never followed, not even a folder on the way. */
class WorkTree {
  private readonly realFolders = new Map<string, boolean>();
  // Index paths are checked relative paths (git-index-file.ts), so the folder and a path joined by
  // hand are what path.join would give, for a fraction of its cost over thousands of entries.
  private readonly prefix: string;

  constructor(
    root: string,
    private readonly fileMode: boolean,
  ) {
    this.prefix = root.endsWith(sep) || root.endsWith('/') ? root : `${root}${sep}`;
  }

  /** True when the file at the entry's path differs from the entry: gone, another type or mode, other bytes. */
  changed(entry: GitIndexEntry, indexTime: Stats | null, checkTime: () => void): boolean {
    const slash = entry.path.lastIndexOf('/');
    if (slash >= 0 && !this.realFolder(entry.path.slice(0, slash))) return true;
    const file = this.prefix + entry.path;
    let info: Stats | undefined;
    try {
      info = lstatSync(file, { throwIfNoEntry: false });
    } catch {
      return true;
    }
    if (info === undefined) return true;
    const type = Number(info.mode) & TYPE_MASK;
    if ((entry.mode & TYPE_MASK) === SYMLINK) {
      if (type !== SYMLINK) return true;
      if (sameStat(entry, info, indexTime)) return false;
      return blobId(Buffer.from(readlinkSync(file, { encoding: 'buffer' }))) !== entry.id;
    }
    if (type !== REGULAR) return true;
    if (this.fileMode && (entry.mode & 0o100) !== (Number(info.mode) & 0o100)) return true;
    if (sameStat(entry, info, indexTime)) return false;
    return fileBlobId(file, info, checkTime) !== entry.id;
  }

  private realFolder(folder: string): boolean {
    const known = this.realFolders.get(folder);
    if (known !== undefined) return known;
    const slash = folder.lastIndexOf('/');
    let real = slash < 0 || this.realFolder(folder.slice(0, slash));
    if (real) {
      try {
        real = lstatSync(this.prefix + folder).isDirectory();
      } catch {
        real = false;
      }
    }
    this.realFolders.set(folder, real);
    return real;
  }
}

/**
 * The stat data git recorded still matches, and the file was not written in the same instant as the
 * index (a "racily clean" entry git itself would rehash). Any doubt falls through to hashing.
 *
 * Times are compared as Node's number stats hold them, milliseconds computed from the seconds and
 * nanoseconds the kernel gave: the same two numbers give the same milliseconds, so a recorded time
 * is matched exactly whenever it is unchanged. Two times less than about a quarter of a
 * microsecond apart can give the same milliseconds too, which git's own check (whole seconds unless
 * built otherwise) is far coarser than. Number stats cost a clean repository's thousand lstat calls
 * a fraction of what BigInt stats do (docs/performance.md).
 */
function sameStat(entry: GitIndexEntry, info: Stats, indexTime: Stats | null): boolean {
  const same =
    info.mtimeMs === statMs(entry.mtimeSeconds, entry.mtimeNanoseconds) &&
    info.ctimeMs === statMs(entry.ctimeSeconds, entry.ctimeNanoseconds) &&
    entry.ino === info.ino % UINT32 &&
    entry.uid === info.uid % UINT32 &&
    entry.gid === info.gid % UINT32 &&
    entry.size === info.size % UINT32;
  return same && indexTime !== null && info.mtimeMs < indexTime.mtimeMs;
}

// The index keeps the low 32 bits of each number.
const UINT32 = 2 ** 32;

/** The milliseconds Node's stats give for a time of `seconds` and `nanoseconds`, computed as Node does. */
function statMs(seconds: number, nanoseconds: number): number {
  return seconds * 1e3 + nanoseconds / 1e6;
}

/** Git's id of a blob with these bytes: SHA-1 of `blob <length>\0` and the bytes. */
export function blobId(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

// The work-tree file is hashed as it is: content filters and line-ending conversion are git
// programs and settings cw does not run, so a file that only differs by them reads as changed.
function fileBlobId(file: string, seen: Stats, checkTime: () => void): string | null {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const info = fstatSync(descriptor);
    // The file looked at is the file that was stat'ed, not one swapped in since.
    if (!info.isFile() || info.ino !== seen.ino || info.dev !== seen.dev) return null;
    const hash = createHash('sha1').update(`blob ${info.size}\0`);
    const chunk = Buffer.alloc(1 << 20);
    let total = 0;
    for (;;) {
      checkTime();
      const count = readSync(descriptor, chunk, 0, chunk.length, null);
      if (count === 0) break;
      hash.update(chunk.subarray(0, count));
      total += count;
    }
    return total === info.size ? hash.digest('hex') : null;
  } finally {
    closeSync(descriptor);
  }
}
