import { join, relative, sep } from 'node:path';
import type { HiddenPath } from '../sandbox/hidden-paths.js';
import { openBeneath, type OpenedBeneath, WorkspaceAccessError } from '../sandbox/open-beneath-workspace.js';
import { type PromptLayer, truncateUtf8 } from './prompt-layer.js';

/** The file name cw reads project instructions from, in the cw home and in each folder. */
export const INSTRUCTIONS_FILE = 'AGENTS.md';
/** The most bytes one instructions file contributes; the rest is cut. */
export const MAX_INSTRUCTIONS_FILE_BYTES = 32 * 1024;
/** The most bytes all instruction layers together contribute. */
export const MAX_INSTRUCTIONS_TOTAL_BYTES = 64 * 1024;

/** An instructions file exists but cannot be read; the turn would miss what the user wrote, so it stops. */
export class ProjectInstructionsError extends Error {
  override readonly name = 'ProjectInstructionsError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor(where: string, code: string, fix = 'fix its permissions or remove it') {
    super(`cannot read ${INSTRUCTIONS_FILE} (${where}): ${code}; ${fix}`);
    this.safeMessage = this.message;
  }
}

/**
 * The instruction layers of a turn, in the order they are appended: the cw home's AGENTS.md, then
 * each AGENTS.md from the workspace root down to the working folder (a deeper file is more specific,
 * so it comes later). Each file and the total are bounded; a file past the total is left out.
 */
export async function readProjectInstructions(options: {
  readonly home: string;
  /** The workspace root, a real path. */
  readonly workspace: string;
  /** The working folder, a real path. */
  readonly cwd: string;
  /** What the sandbox hides (hidden-paths.ts): a workspace AGENTS.md there is not read. */
  readonly hidden?: readonly HiddenPath[];
}): Promise<PromptLayer[]> {
  const sources: {
    kind: PromptLayer['kind'];
    depth: number;
    file: string;
    label: string;
    root: string;
    hidden?: readonly HiddenPath[];
  }[] = [
    {
      kind: 'home-instructions',
      depth: 0,
      file: join(options.home, INSTRUCTIONS_FILE),
      label: 'cw home',
      root: options.home,
    },
  ];
  for (const [depth, folder] of foldersDown(options.workspace, options.cwd).entries()) {
    const label = relative(options.workspace, folder).split(sep).join('/');
    sources.push({
      kind: 'workspace-instructions',
      depth,
      file: join(folder, INSTRUCTIONS_FILE),
      label: label === '' ? '.' : label,
      root: options.workspace,
      hidden: options.hidden ?? [],
    });
  }
  const layers: PromptLayer[] = [];
  let budget = MAX_INSTRUCTIONS_TOTAL_BYTES;
  for (const source of sources) {
    const text = await readInstructions(
      source.root,
      source.file,
      source.kind === 'home-instructions' ? 'cw home' : 'workspace',
      source.hidden ?? [],
    );
    if (text === null || text.trim() === '') continue;
    if (budget <= 0) continue;
    const cut = truncateUtf8(text, Math.min(MAX_INSTRUCTIONS_FILE_BYTES, budget));
    budget -= Buffer.byteLength(cut.text, 'utf8');
    const where = source.kind === 'home-instructions' ? 'cw home' : `folder ${source.label}`;
    layers.push({
      kind: source.kind,
      depth: source.depth,
      text: `\n<instructions source="${INSTRUCTIONS_FILE} in ${where}">\n${cut.text.replace(/\n*$/, '')}\n</instructions>\n`,
      truncated: cut.truncated,
    });
  }
  return layers;
}

/** The folders from the workspace root down to `cwd`; only the root when `cwd` is outside it. */
function foldersDown(workspace: string, cwd: string): string[] {
  const rel = relative(workspace, cwd);
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) return [workspace];
  const folders = [workspace];
  let folder = workspace;
  for (const part of rel.split(sep)) {
    folder = join(folder, part);
    folders.push(folder);
  }
  return folders;
}

/**
 * A file's text, or null when there is no such file; anything else that stops the read is an error.
 * The file is opened beneath its root and judged on the descriptor, so a link the model planted to a
 * key outside never reaches the system prompt (docs/security.md, "Files cw opens in the workspace").
 */
async function readInstructions(
  root: string,
  file: string,
  where: string,
  hidden: readonly HiddenPath[],
): Promise<string | null> {
  let opened: OpenedBeneath;
  try {
    opened = await openBeneath(root, file, { hidden });
  } catch (error) {
    // A hidden file is not there as far as the model is concerned, like a hidden entry in a listing.
    if (error instanceof WorkspaceAccessError && error.reason === 'hidden') return null;
    if (error instanceof WorkspaceAccessError) {
      throw new ProjectInstructionsError(
        where,
        'it leads out of its folder through a symbolic link',
        'remove the link',
      );
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new ProjectInstructionsError(where, code ?? 'open failed');
  }
  try {
    if (!opened.info.isFile()) return null;
    // Only what the bound can use is read (plus a character's worth, so the cut is exact).
    const buffer = Buffer.alloc(Math.min(opened.info.size, MAX_INSTRUCTIONS_FILE_BYTES + 4));
    const { bytesRead } = await opened.handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch (error) {
    throw new ProjectInstructionsError(where, (error as NodeJS.ErrnoException).code ?? 'read failed');
  } finally {
    await opened.handle.close();
  }
}
