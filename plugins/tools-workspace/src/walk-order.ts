/** Folders a recursive walk names but never enters: version-control internals and installed packages. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** Code-point order, the same on every machine and locale. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
