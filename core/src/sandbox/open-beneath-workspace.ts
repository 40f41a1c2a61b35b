import { randomBytes } from 'node:crypto';
import { existsSync, type Dirent, type Stats } from 'node:fs';
import {
  constants,
  type FileHandle,
  lstat,
  open,
  readdir,
  readlink,
  realpath,
  rename,
  stat,
  unlink,
} from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { GIT_WRITE_REFUSAL, isProtectedGitPath } from './git-write-rules.js';
import type { HiddenPath } from './hidden-paths.js';

/**
 * The one way cw's own code opens a file or folder the model could have written: open first, then
 * judge the descriptor it got, never a path checked earlier and opened again (docs/security.md,
 * "Files cw opens in the workspace"). On Linux the descriptor's real path is read from
 * `/proc/self/fd/N`, and children of an opened folder are named through that same entry, which
 * anchors each step to the folder held open the way `openat` does. Elsewhere the path is resolved
 * after the open and its identity (device and inode) must be the descriptor's, or the open is refused.
 */

/** Why cw refused to open or write a path: one line, naming no path of the machine. */
export class WorkspaceAccessError extends Error {
  override readonly name = 'WorkspaceAccessError';
  /** The line a tool result or an error shows as it is. */
  readonly refusal: string;
  /** Why: a reader that skips hidden files quietly tells them from a link out. */
  readonly reason: 'outside' | 'hidden' | 'changed' | 'git';
  constructor(refusal: string, reason: WorkspaceAccessError['reason']) {
    super(refusal);
    this.refusal = refusal;
    this.reason = reason;
  }
}

/** The line for a descriptor whose real path is outside the root it was opened beneath. */
export const LEADS_OUT = 'refused: the path leads out of the workspace through a symbolic link';
/** The line for an entry that was swapped between two steps of one open or write. */
export const CHANGED = 'refused: the path changed while cw was opening it; try again';

/** A file or folder opened beneath a root and checked on its descriptor. */
export interface OpenedBeneath {
  readonly handle: FileHandle;
  /** The descriptor's own stat. */
  readonly info: Stats;
  /** The real absolute path of what was opened; never shown. */
  readonly real: string;
  /** A path naming exactly this entry for as long as it is open: `/proc/self/fd/N` on Linux, else `real`. */
  readonly anchor: string;
}

/** What an open may meet besides the workspace. */
export interface OpenBeneathOptions {
  /** Paths cw must not open, real and absolute, with the label a refusal names (hidden-paths.ts). */
  readonly hidden?: readonly HiddenPath[];
  /** Refuse a symbolic link as the last component instead of following it (walks never follow links). */
  readonly noFollow?: boolean;
  /** Open only a folder. */
  readonly directory?: boolean;
}

const FD_FOLDER = '/proc/self/fd';
// Checked once: a Linux without /proc mounted takes the portable way, which also fails closed.
const procFds = process.platform === 'linux' && existsSync(FD_FOLDER);

// Whether `target` is `root` or inside it; both absolute and normalized.
function isBeneath(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

// The label of the hidden path that covers `real`, or null.
function hiddenLabelOf(real: string, hidden: readonly HiddenPath[] = []): string | null {
  return hidden.find((entry) => isBeneath(entry.path, real))?.label ?? null;
}

// The one line refusing a hidden path names the label, never the path.
function hiddenRefusal(label: string): string {
  return `refused: ${label} is hidden from cw's tools and commands`;
}

/**
 * Opens `target` (absolute) for reading and checks what it got: the descriptor's real path is beneath
 * `root` and not hidden. A refused open closes what it opened and throws a WorkspaceAccessError;
 * file-system errors (ENOENT, EACCES, ELOOP under `noFollow`) are thrown as Node raised them.
 */
export async function openBeneath(
  root: string,
  target: string,
  options: OpenBeneathOptions = {},
): Promise<OpenedBeneath> {
  // Non-blocking, so a FIFO planted where a file was expected cannot hang the open before it is judged.
  const flags =
    constants.O_RDONLY |
    constants.O_NONBLOCK |
    constants.O_NOCTTY |
    (options.noFollow ? constants.O_NOFOLLOW : 0) |
    (options.directory ? constants.O_DIRECTORY : 0);
  const handle = await open(target, flags);
  try {
    const info = await handle.stat();
    const real = await realPathOf(handle, target, info);
    // The root is judged by its real path too: a home or temporary folder reached through a link.
    if (!isBeneath(root, real) && !isBeneath(await realpath(root).catch(() => root), real)) {
      throw new WorkspaceAccessError(LEADS_OUT, 'outside');
    }
    const label = hiddenLabelOf(real, options.hidden);
    if (label !== null) throw new WorkspaceAccessError(hiddenRefusal(label), 'hidden');
    return { handle, info, real, anchor: procFds ? `${FD_FOLDER}/${handle.fd}` : real };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/** The real path of an open descriptor, or a refusal when it cannot be known for certain. */
async function realPathOf(handle: FileHandle, target: string, info: Stats): Promise<string> {
  if (procFds) {
    const real = await readlink(`${FD_FOLDER}/${handle.fd}`);
    // An unlinked entry reads as `… (deleted)`, and anything not absolute is not a file-system path.
    if (!isAbsolute(real) || (info.nlink === 0 && !info.isDirectory()))
      throw new WorkspaceAccessError(CHANGED, 'changed');
    return real;
  }
  // Portable: resolve the path now and insist it names the very inode the descriptor holds.
  const real = await realpath(target).catch(() => {
    throw new WorkspaceAccessError(CHANGED, 'changed');
  });
  const now = await stat(real).catch(() => null);
  if (now === null || now.dev !== info.dev || now.ino !== info.ino) throw new WorkspaceAccessError(CHANGED, 'changed');
  return real;
}

/** The entries of an opened folder, read through its anchor; hidden ones are left out and counted. */
export async function listOpened(
  folder: OpenedBeneath,
  hidden: readonly HiddenPath[] = [],
): Promise<{ readonly entries: Dirent[]; readonly hidden: number }> {
  const all = await readdir(folder.anchor, { withFileTypes: true });
  if (!procFds) await assertSameEntry(folder);
  const entries = all.filter((entry) => hiddenLabelOf(join(folder.real, entry.name), hidden) === null);
  return { entries, hidden: all.length - entries.length };
}

/** The path naming `name` inside an opened folder, bound to the folder held open. */
export function childOf(folder: OpenedBeneath, name: string): string {
  return `${folder.anchor}/${name}`;
}

/** Portable only: the folder's real path still names the inode held open. */
async function assertSameEntry(opened: OpenedBeneath): Promise<void> {
  const now = await stat(opened.real).catch(() => null);
  if (now === null || now.dev !== opened.info.dev || now.ino !== opened.info.ino)
    throw new WorkspaceAccessError(CHANGED, 'changed');
}

/** The refusal for writing `relativePath` (workspace-relative, `/`-separated), or null when it may be written. */
export function writeRefusal(relativePath: string): string | null {
  return isProtectedGitPath(relativePath) ? GIT_WRITE_REFUSAL : null;
}

/**
 * Replaces an opened file's content atomically: the parent folder is opened beneath `root` and held,
 * the entry in it must still be the file that was opened, and a temporary file made in that held
 * folder is renamed over it there, so a parent swapped for a link cannot redirect the write. Keeps the
 * permission bits (and owner, where allowed). Writes into `.git` other than what a commit writes are
 * refused before anything is made.
 */
export async function replaceOpened(
  root: string,
  file: OpenedBeneath,
  content: string | Uint8Array,
  options: OpenBeneathOptions = {},
): Promise<void> {
  const refusal = writeRefusal(relative(root, file.real).split(sep).join('/'));
  if (refusal !== null) throw new WorkspaceAccessError(refusal, 'git');
  const name = basename(file.real);
  const folder = await openBeneath(root, dirname(file.real), { ...options, directory: true, noFollow: false });
  try {
    if (folder.real !== dirname(file.real)) throw new WorkspaceAccessError(CHANGED, 'changed');
    const entry = await lstat(childOf(folder, name));
    if (!entry.isFile() || entry.dev !== file.info.dev || entry.ino !== file.info.ino) {
      throw new WorkspaceAccessError(CHANGED, 'changed');
    }
    const mode = file.info.mode & 0o7777;
    const temporary = childOf(folder, `.${name}.cw-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    // `wx` is O_CREAT|O_EXCL: it never follows a link, and never reuses an entry someone else made.
    const handle = await open(temporary, 'wx', mode);
    let renamed = false;
    try {
      try {
        await handle.writeFile(content);
        // open() applied the umask; chmod sets the original bits exactly.
        await handle.chmod(mode);
        if (
          typeof process.getuid === 'function' &&
          (file.info.uid !== process.getuid() || file.info.gid !== process.getgid?.())
        ) {
          await handle.chown(file.info.uid, file.info.gid).catch(() => undefined);
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      // The portable way has no anchor: the folder is checked once more, as close to the rename as it gets.
      if (!procFds) await assertSameEntry(folder);
      await rename(temporary, childOf(folder, name));
      renamed = true;
    } finally {
      if (!renamed) await unlink(temporary).catch(() => undefined);
    }
  } finally {
    await folder.handle.close();
  }
}
