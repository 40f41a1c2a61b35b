import { constants, type Stats } from 'node:fs';
import {
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readFile,
  readdir,
  readlink,
  realpath,
  rename,
  rm,
  rmdir,
  symlink,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve, sep } from 'node:path';
import type { SandboxProgram } from './find-sandbox.js';
import { GIT_COMMIT_WRITABLE, isProtectedGitPath } from './git-write-rules.js';
import { indexGitlinks } from './index-gitlinks.js';

/** How one sandboxed command sees the workspace's `.git`; both sandbox programs read it (docs/security.md). */
export interface GitSandboxRules {
  /** bubblewrap: bind mounts over the workspace, in order; later ones cover earlier ones. */
  readonly mounts: readonly { readonly source: string; readonly target: string; readonly writable: boolean }[];
  /** sandbox-exec: paths no command may write, rename or create (the `.git` folder, gitfile or name). */
  readonly readOnly: readonly string[];
  /** sandbox-exec: the git folder inside which what a commit writes stays writable; null when there is none. */
  readonly commitFolder: string | null;
}

/** The rules for one command, and what to do once it has ended. */
export interface GitFolderGuard {
  readonly rules: GitSandboxRules;
  /** Brings back what a commit wrote and drops everything else; call once the command has ended. */
  release(): Promise<void>;
}

/** The workspace's `.git` is a symbolic link: a link is not a mount point, so it could be swapped for a planted one. */
export class GitFolderLinkError extends Error {
  override readonly name = 'GitFolderLinkError';
  readonly exitCode = 1;
  /** The message as printed: cw's own words only. */
  readonly safeMessage: string;
  constructor() {
    super(
      "the workspace's .git is a symbolic link, which the sandbox cannot keep from being replaced: nothing was run; replace the link with the folder it points to",
    );
    this.safeMessage = this.message;
  }
}

// Empty `.git` mount points this process made where there was none, with the folders it made for each
// (outermost first) and how many commands use it.
const mountPoints = new Map<string, { users: number; readonly made: readonly string[] }>();

/**
 * Holds an empty folder at `path` (a `.git` inside the workspace) as a mount point while commands
 * use it: made here, with any missing folders above it, and removed after the last command. Null when
 * something is there now, or a folder on the way is a link (cw never makes folders through a link).
 */
async function holdMountPoint(workspace: string, path: string): Promise<(() => Promise<void>) | null> {
  const held = mountPoints.get(path);
  const made: string[] = [];
  if (held === undefined) {
    let folder = workspace;
    for (const segment of path.slice(workspace.length + 1).split(sep)) {
      folder = join(folder, segment);
      const found = await lstatOrNull(folder);
      if (found !== null && folder !== path && found.isDirectory() && !found.isSymbolicLink()) continue;
      try {
        if (found !== null) throw new Error('in the way');
        await mkdir(folder);
        made.push(folder);
      } catch {
        for (const done of made.reverse()) await rmdir(done).catch(() => {});
        return null;
      }
    }
    mountPoints.set(path, { users: 1, made });
  } else held.users += 1;
  let released = false;
  return async () => {
    const entry = mountPoints.get(path);
    if (released || entry === undefined) return;
    released = true;
    entry.users -= 1;
    if (entry.users > 0) return;
    // Only when no command uses it: removing a mount point unmounts it in every namespace.
    mountPoints.delete(path);
    for (const folder of [...entry.made].reverse()) await rmdir(folder).catch(() => {});
  };
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch {
    return null;
  }
}

/**
 * Decides how one command sees the workspace's `.git` so that nothing it writes there reaches the
 * user's own git except what a commit writes. On Linux the command's `.git` is a private staging
 * folder bound over the real one: a mount point cannot be renamed or replaced, new names in it
 * (`commondir`, `config.worktree`, `modules/…`) stay in staging, the rest of the real folder is bound
 * read-only, objects, refs and logs writable, and the commit's top-level files are copied in and,
 * when changed, back. Where there is no repository an empty read-only `.git` keeps `git init` out.
 */
export async function guardGitFolder(workspace: string, kind: SandboxProgram['kind']): Promise<GitFolderGuard> {
  const git = join(workspace, '.git');
  if (mountPoints.has(git)) return guardNoRepository(workspace, git, kind);
  const found = await lstatOrNull(git);
  if (found === null) return guardNoRepository(workspace, git, kind);
  if (found.isSymbolicLink()) throw new GitFolderLinkError();
  if (!found.isDirectory()) return guardGitFile(workspace, git);
  // A folder that is no repository (no HEAD) is kept as it is, read-only whole.
  if ((await lstatOrNull(join(git, 'HEAD'))) === null) return readOnlyWhole([git]);
  if (kind === 'sandbox-exec') {
    const { gits } = await submodulesOf(workspace, git, kind);
    return { rules: { mounts: [], readOnly: [git, ...gits], commitFolder: git }, release: async () => {} };
  }
  return stageGitFolder(workspace, git);
}

function readOnlyWhole(paths: readonly string[]): GitFolderGuard {
  return {
    rules: {
      mounts: paths.map((path) => ({ source: path, target: path, writable: false })),
      readOnly: paths,
      commitFolder: null,
    },
    release: async () => {},
  };
}

/** A `.git` file (a linked worktree or submodule): the file, and its git folder when that is in the workspace, read-only. */
async function guardGitFile(workspace: string, git: string): Promise<GitFolderGuard> {
  const paths = [git];
  const handle = await open(git, constants.O_RDONLY | constants.O_NOFOLLOW);
  let text = '';
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    text = buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
  const named = /^gitdir: *(.+)$/m.exec(text)?.[1]?.trim();
  if (named !== undefined) {
    const target = await realpath(isAbsolute(named) ? named : resolve(workspace, named)).catch(() => null);
    // Elsewhere it is read-only already, with the rest of the file system.
    if (target?.startsWith(workspace + sep)) paths.push(target);
  }
  return readOnlyWhole(paths);
}

/** No repository: an empty read-only `.git` (bubblewrap needs a mount point, made here and removed after). */
async function guardNoRepository(
  workspace: string,
  git: string,
  kind: SandboxProgram['kind'],
): Promise<GitFolderGuard> {
  if (kind === 'sandbox-exec') return readOnlyWhole([git]);
  const release = await holdMountPoint(workspace, git);
  if (release === null) {
    // Made since it was looked at: judge what is there now.
    if ((await lstatOrNull(git)) !== null) return guardGitFolder(workspace, kind);
    throw new Error('the workspace refused a mount point for .git');
  }
  return { rules: readOnlyWhole([git]).rules, release };
}

/** What a commit file in staging was when the command started, to tell whether it changed; null when absent. */
type FileState = { readonly ino: number; readonly size: number; readonly mtimeMs: number } | null;

/**
 * The submodules the user's index lists (gitlink paths; [] when it cannot be read), and the `.git` of
 * each that is checked out: the user's `git status` runs git in each, with its config, so these stay
 * read-only and cannot be replaced.
 */
async function submodulesOf(
  workspace: string,
  git: string,
  kind: SandboxProgram['kind'],
): Promise<{
  readonly hashBytes: 20 | 32;
  readonly links: string[];
  readonly gits: string[];
  readonly releases: (() => Promise<void>)[];
}> {
  const config = await readFile(join(git, 'config'), 'utf8').catch(() => '');
  const hashBytes = /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? 32 : 20;
  const index = await readFile(join(git, 'index')).catch(() => null);
  const links = (index === null ? null : indexGitlinks(index, hashBytes)) ?? [];
  const gits: string[] = [];
  const releases: (() => Promise<void>)[] = [];
  for (const link of links) {
    if (link.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) continue;
    const path = join(workspace, link, '.git');
    const found = mountPoints.has(path) ? null : await lstatOrNull(path);
    // A link is not a mount point: git follows it to a folder outside (read-only) or one kept here.
    if (found?.isSymbolicLink()) continue;
    // Not checked out: nothing may be made there (bubblewrap needs a mount point to say so).
    const release = found === null && kind === 'bubblewrap' ? await holdMountPoint(workspace, path) : null;
    if (release !== null) releases.push(release);
    if (found !== null || release !== null || kind === 'sandbox-exec') gits.push(path);
  }
  return { hashBytes, links, gits, releases };
}

async function stageGitFolder(workspace: string, git: string): Promise<GitFolderGuard> {
  const staging = await realpath(await mkdtemp(join(tmpdir(), 'cw-git-')));
  const mounts: { source: string; target: string; writable: boolean }[] = [
    { source: staging, target: git, writable: true },
  ];
  try {
    // git makes logs on a first commit; it must be the real one, not staging's.
    if ((await lstatOrNull(join(git, 'logs'))) === null) await mkdir(join(git, 'logs')).catch(() => {});
    const folders = new Set<string>();
    for (const name of await readdir(git)) {
      const source = join(git, name);
      const entry = await lstat(source);
      const writable = !isProtectedGitPath(`.git/${name}`);
      if (entry.isSymbolicLink()) await symlink(await readlink(source), join(staging, name));
      else if (entry.isDirectory()) {
        mounts.push({ source, target: source, writable });
        if (writable) folders.add(name);
      } else if (entry.isFile()) {
        if (writable) await copyFile(source, join(staging, name), constants.COPYFILE_FICLONE);
        else mounts.push({ source, target: source, writable: false });
      }
      // Sockets and pipes (an fsmonitor daemon's) are left out: a command has no business with them.
    }
    const submodules = await submodulesOf(workspace, git, 'bubblewrap');
    for (const path of submodules.gits) mounts.push({ source: path, target: path, writable: false });
    const files = GIT_COMMIT_WRITABLE.filter((name) => !folders.has(name));
    const before = new Map<string, FileState>();
    for (const name of files) before.set(name, stateOf(await lstatOrNull(join(staging, name))));
    let released = false;
    return {
      rules: { mounts, readOnly: [git], commitFolder: git },
      async release() {
        // Once only: a second pass would read the removed staging as "the command deleted HEAD".
        if (released) return;
        released = true;
        try {
          for (const name of files)
            if (name !== 'index' || (await addsNoSubmodule(join(staging, 'index'), submodules)))
              await bringBack(staging, git, name, before.get(name) ?? null);
        } finally {
          await rm(staging, { recursive: true, force: true });
          for (const done of submodules.releases) await done();
        }
      },
    };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

function stateOf(stats: Stats | null): FileState {
  return stats?.isFile() ? { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs } : null;
}

/** Copies one commit file back from staging when the command changed it, the way git writes it (lock, rename). */
/**
 * Whether an index the command left lists no submodule beyond those known when it started: `git add`
 * of a repository the command made would have the user's `git status` run git, and its config, in
 * it. An index that cannot be read is not brought back either.
 */
async function addsNoSubmodule(
  index: string,
  known: { readonly hashBytes: 20 | 32; readonly links: readonly string[] },
): Promise<boolean> {
  const bytes = await readFile(index).catch(() => null);
  if (bytes === null) return true;
  return indexGitlinks(bytes, known.hashBytes)?.every((link) => known.links.includes(link)) === true;
}

async function bringBack(staging: string, git: string, name: string, before: FileState): Promise<void> {
  const now = await lstatOrNull(join(staging, name));
  const target = join(git, name);
  try {
    if (now === null) {
      if (before !== null) await rm(target, { force: true });
      return;
    }
    // A link or folder in its place never leaves staging.
    if (!now.isFile()) return;
    const after = stateOf(now);
    if (
      before !== null &&
      after !== null &&
      before.ino === after.ino &&
      before.size === after.size &&
      before.mtimeMs === after.mtimeMs
    )
      return;
    // A lock held by a git outside means that git is writing the file now: its write wins.
    await copyFile(join(staging, name), `${target}.lock`, constants.COPYFILE_EXCL);
  } catch {
    // Left as the user's git has it.
    return;
  }
  try {
    await rename(`${target}.lock`, target);
  } catch {
    await rm(`${target}.lock`, { force: true });
  }
}
