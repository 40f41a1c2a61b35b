import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * What cw could not read in a repository: an unsupported format, a malformed file, the time bound.
 * Caught where the turn context asks, which then says `unknown` (docs/project-context.md).
 */
export class GitUnreadable extends Error {
  override readonly name = 'GitUnreadable';
}

/** Where a work tree's repository keeps its files: its own git folder, and the folder shared by its worktrees. */
export interface GitRepositoryFolders {
  /** HEAD and the index live here. */
  readonly gitDir: string;
  /** Objects, branches and packed refs live here: `commondir` of a linked worktree, else `gitDir`. */
  readonly commonDir: string;
  /** `core.filemode`: whether a changed executable bit counts as a change (git's default, true). */
  readonly fileMode: boolean;
}

/** What HEAD names: a commit, or a branch with no commit yet. */
export type GitHead = { readonly kind: 'commit'; readonly id: string } | { readonly kind: 'unborn' };

// A ref name cw reads a file for: no `..`, nothing that leaves the refs folder.
const REF_NAME = /^refs\/(?:[A-Za-z0-9._+@-]+\/)*[A-Za-z0-9._+@-]+$/;
const OBJECT_ID = /^[0-9a-f]{40}$/;

/**
 * The bytes of a regular file, or null when there is none. Opened without blocking, so a FIFO the
 * model planted cannot hang cw, and checked to be a regular file on the descriptor that is read.
 */
export function readRegularFile(
  file: string,
  options: { readonly maxBytes: number; readonly noFollow?: boolean },
): Buffer | null {
  let descriptor: number;
  try {
    descriptor = openSync(
      file,
      constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow === true ? constants.O_NOFOLLOW : 0),
    );
  } catch {
    return null;
  }
  try {
    const info = fstatSync(descriptor);
    if (!info.isFile()) return null;
    if (info.size > options.maxBytes) throw new GitUnreadable('a git file is larger than cw reads');
    const bytes = Buffer.alloc(info.size);
    let read = 0;
    while (read < bytes.length) {
      const count = readSync(descriptor, bytes, read, bytes.length - read, read);
      if (count === 0) break;
      read += count;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(descriptor);
  }
}

const SMALL_FILE = 1 << 20;

function readText(file: string): string | null {
  return readRegularFile(file, { maxBytes: SMALL_FILE })?.toString('utf8') ?? null;
}

/**
 * The git folders of a work tree at `workspace`: its `.git` folder, or where its `.git` file's
 * `gitdir:` points, with `commondir` taken as a path to read from and nothing else. Null when the
 * workspace is not a repository. Throws `GitUnreadable` for a format cw does not read (SHA-256
 * objects, reftable refs).
 */
export function gitRepositoryFolders(workspace: string): GitRepositoryFolders | null {
  const dotGit = join(workspace, '.git');
  const pointer = readText(dotGit);
  let gitDir = dotGit;
  if (pointer !== null) {
    const target = /^gitdir:\s*(.+?)\s*$/m.exec(pointer)?.[1];
    if (target === undefined) return null;
    gitDir = resolve(workspace, target);
  }
  if (readText(join(gitDir, 'HEAD')) === null) return null;
  const common = readText(join(gitDir, 'commondir'))?.trim();
  const commonDir = common ? (isAbsolute(common) ? common : resolve(gitDir, common)) : gitDir;
  // What git itself asks of a repository folder; without them git would not call it one either.
  for (const folder of ['objects', 'refs'])
    if (!statSync(join(commonDir, folder), { throwIfNoEntry: false })?.isDirectory())
      throw new GitUnreadable('not a complete git folder');
  const config = readText(join(commonDir, 'config')) ?? '';
  // Only SHA-1 objects and file refs are read; anything else is `unknown`, not a wrong answer.
  if (/^\s*objectformat\s*=\s*(?!sha1\b)/im.test(config)) throw new GitUnreadable('not a SHA-1 repository');
  if (/^\s*refstorage\s*=\s*(?!files\b)/im.test(config)) throw new GitUnreadable('refs not stored as files');
  // Read as data from the one setting it needs; nothing in the config is followed or run.
  const fileMode = !/^\s*filemode\s*=\s*(?:false|no|off|0)\s*$/im.test(config);
  return { gitDir, commonDir, fileMode };
}

/** The commit HEAD names, following symbolic refs through loose files and `packed-refs`. */
export function gitHead(folders: GitRepositoryFolders): GitHead {
  let text = readText(join(folders.gitDir, 'HEAD'));
  // A symbolic ref may name another; git stops at five levels, and so does cw.
  for (let depth = 0; depth < 5; depth += 1) {
    if (text === null) throw new GitUnreadable('HEAD cannot be read');
    const line = text.trim();
    if (OBJECT_ID.test(line)) return { kind: 'commit', id: line };
    const ref = /^ref:\s*(\S+)$/.exec(line)?.[1];
    if (ref === undefined || !REF_NAME.test(ref)) throw new GitUnreadable('HEAD is not a ref or a commit');
    const loose = readText(join(refFolder(folders, ref), ref));
    if (loose !== null) {
      text = loose;
      continue;
    }
    const packed = packedRef(folders.commonDir, ref);
    return packed === null ? { kind: 'unborn' } : { kind: 'commit', id: packed };
  }
  throw new GitUnreadable('symbolic refs nest too deep');
}

// Branches are shared by a repository's worktrees; a few ref folders are each worktree's own.
function refFolder(folders: GitRepositoryFolders, ref: string): string {
  return /^refs\/(?:bisect|worktree|rewritten)\//.test(ref) ? folders.gitDir : folders.commonDir;
}

function packedRef(commonDir: string, ref: string): string | null {
  const packed = readRegularFile(join(commonDir, 'packed-refs'), { maxBytes: 256 * SMALL_FILE });
  if (packed === null) return null;
  for (const line of packed.toString('utf8').split('\n')) {
    const match = /^([0-9a-f]{40}) (\S+)$/.exec(line);
    if (match?.[2] === ref) return match[1] as string;
  }
  return null;
}

/** The folder of a git folder's objects. */
export function objectsFolder(folders: GitRepositoryFolders): string {
  return join(folders.commonDir, 'objects');
}

/** The index file of a work tree. */
export function indexFile(folders: GitRepositoryFolders): string {
  return join(folders.gitDir, 'index');
}
