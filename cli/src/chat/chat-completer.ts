import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { commandsStartingWith } from './slash-commands.js';

// Tab completion for the session's prompt (node:readline's completer): slash command names, the
// values of /reasoning, /approval and /route, and workspace paths after `@`.

/** The most paths one completion lists: a huge folder must not flood the terminal. */
const MAX_PATHS = 200;

/** What the completer offers values from. */
export interface CompletionSource {
  /** The workspace root, a real path: `@` paths are completed inside it. */
  readonly workspace: string;
  /** The route ids /route takes. */
  readonly routes: () => readonly string[];
}

const VALUES: Readonly<Record<string, readonly string[]>> = {
  reasoning: ['off', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'auto'],
  approval: ['never', 'read-only', 'workspace', 'ask'],
  goal: ['clear'],
  skills: ['use'],
};

/** Completes `line` (the text before the cursor): the candidates and the word they replace. */
export async function completeLine(line: string, source: CompletionSource): Promise<[string[], string]> {
  const command = /^\/([a-z-]*)$/u.exec(line);
  if (command !== null) {
    const names = commandsStartingWith(command[1] ?? '').map((name) => `/${name}`);
    return [names.length === 1 ? [`${names[0]} `] : names, line];
  }
  const value = /^\/([a-z-]+)\s+(\S*)$/u.exec(line);
  if (value !== null) {
    const values = value[1] === 'route' ? source.routes() : (VALUES[value[1] ?? ''] ?? []);
    const typed = value[2] ?? '';
    return [values.filter((candidate) => candidate.startsWith(typed)), typed];
  }
  // An `@` mention at the start or after whitespace, not quoted (file-mentions.ts reads the same).
  const mention = /(?:^|\s)@([^\s"@][^\s]*|)$/u.exec(line);
  if (mention !== null) {
    const typed = mention[1] ?? '';
    const paths = await workspacePaths(source.workspace, typed);
    return [paths.map((path) => `@${path}`), `@${typed}`];
  }
  return [[], line];
}

/**
 * The workspace entries that complete `typed` (a path relative to the workspace, `/` separated):
 * folders end in `/`; hidden entries only when the typed name starts with a dot; nothing outside
 * the workspace.
 */
export async function workspacePaths(workspace: string, typed: string): Promise<string[]> {
  const slash = typed.lastIndexOf('/');
  const folder = slash < 0 ? '' : typed.slice(0, slash + 1);
  const prefix = slash < 0 ? typed : typed.slice(slash + 1);
  const absolute = join(workspace, folder);
  const inside = relative(workspace, absolute);
  if (inside.startsWith('..') || inside.split(sep).includes('..')) return [];
  const entries = await readdir(absolute, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.name.startsWith(prefix) && (prefix.startsWith('.') || !entry.name.startsWith('.')))
    .map((entry) => `${folder}${entry.name}${entry.isDirectory() ? '/' : ''}`)
    .sort()
    .slice(0, MAX_PATHS);
}
