// The built-in plugins' entry modules compiled into the one-file bundle, by package name. Outside the
// bundle there are none, and every plugin is imported from its files; scripts/bundle-cli.mjs puts the
// list in when it bundles, so the fast entries load no plugin file (docs/performance.md).

/** A built-in plugin's entry module as the bundle holds it: for that version and `cw.register` only. */
export interface BuiltinEntry {
  readonly version: string;
  readonly register: string;
  /** Runs the entry module (once) and hands back its exports. */
  readonly load: () => unknown;
}

/** The built-in entries the bundle holds; empty outside it. */
export const builtinEntries: ReadonlyMap<string, BuiltinEntry> = new Map();
