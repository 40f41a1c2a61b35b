import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';

/** Why a folder cannot hold a program cw starts; `trusted` when it can (docs/security.md). */
export type FolderTrust =
  | 'trusted'
  | 'relative'
  | 'missing'
  | 'in-workspace'
  | 'node-modules'
  | 'not-root-owned'
  | 'writable-by-others';

/**
 * Whether a folder may hold a program cw starts outside the sandbox: an absolute path, not inside
 * the workspace, not a package's `node_modules/.bin`, and it and every
 * folder above it owned by root and writable by no group or other user, as system folders are.
 * The model can write the workspace, and anyone can write under `/tmp`; a program found there could
 * be one it planted (docs/security.md#which-programs-cw-starts-and-from-where).
 */
export function folderTrust(folder: string, options: { readonly workspace?: string } = {}): FolderTrust {
  if (folder === '' || !isAbsolute(folder)) return 'relative';
  let real: string;
  try {
    real = realpathSync.native(folder);
  } catch {
    return 'missing';
  }
  for (const path of [folder, real]) if (path.split(sep).includes('node_modules')) return 'node-modules';
  const workspace = options.workspace;
  if (workspace !== undefined && (inside(real, realOrSelf(workspace)) || inside(folder, workspace)))
    return 'in-workspace';
  for (let current = real; ; current = dirname(current)) {
    let info: ReturnType<typeof statSync>;
    try {
      info = statSync(current);
    } catch {
      return 'missing';
    }
    if (info.uid !== 0) return 'not-root-owned';
    if ((info.mode & 0o022) !== 0) return 'writable-by-others';
    if (dirname(current) === current) return 'trusted';
  }
}

/**
 * The program `name` from the first PATH folder cw trusts (see `folderTrust`), checked without
 * running anything: a regular executable file, owned by root and writable by no one else, whose real
 * location is trusted too. Null when no trusted folder has it; untrusted folders are skipped, not
 * an error, so a planted `.venv/bin` first on PATH leaves the system's program found.
 */
export function findTrustedProgram(
  name: string,
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly workspace?: string } = {},
): string | null {
  for (const folder of (env['PATH'] ?? '').split(delimiter)) {
    // Most folders on PATH do not hold the program: one look says so before the walk up that
    // trusting a folder takes, which a preview would otherwise pay for every folder (docs/performance.md).
    if (folder === '' || !isAbsolute(folder) || !existsSync(join(folder, name))) continue;
    if (folderTrust(folder, options) !== 'trusted') continue;
    const file = join(folder, name);
    if (trustedProgramFile(file, options)) return file;
  }
  return null;
}

/** Whether an absolute program file passes the same rule: trusted folder, root's own executable file. */
export function trustedProgramFile(file: string, options: { readonly workspace?: string } = {}): boolean {
  if (!isAbsolute(file) || folderTrust(dirname(file), options) !== 'trusted') return false;
  try {
    const real = realpathSync.native(file);
    if (folderTrust(dirname(real), options) !== 'trusted') return false;
    const info = statSync(real);
    if (!info.isFile() || info.uid !== 0 || (info.mode & 0o022) !== 0) return false;
    accessSync(real, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || !(rel.startsWith('..') || isAbsolute(rel));
}

/**
 * The file a user-configured command (a hook, an MCP server) starts when it runs outside the
 * sandbox. A bare name is looked up on PATH, skipping relative folders, folders inside the workspace
 * and `node_modules/.bin`, all of which the model can fill; the user's own folders (`~/.local/bin`,
 * a version manager's) still count, since the user chose the command. A name with a `/` is the
 * user's explicit choice and is kept. Null when no folder has it.
 */
export function userProgramOutsideWorkspace(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly workspace?: string } = {},
): string | null {
  if (command.includes('/')) return command;
  if (command === '') return null;
  for (const folder of (env['PATH'] ?? '').split(delimiter)) {
    const trust = folderTrust(folder, options);
    if (trust === 'relative' || trust === 'missing' || trust === 'in-workspace' || trust === 'node-modules') continue;
    const file = join(folder, command);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here; the next folder.
    }
  }
  return null;
}
