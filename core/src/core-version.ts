import { createRequire } from 'node:module';

// A bundle that compiles the core in (the CLI's fast-entry bundle, scripts/bundle-cli.mjs) writes the
// version it compiled in place of this name: the bundled code is that version whatever package sits
// beside it later, and reading it costs nothing. Everywhere else the name is undefined.
declare const __CW_CORE_VERSION__: string | undefined;

let known: string | null | undefined;

/** The version in @cw/core's package.json (or the bundled one's), or null when it cannot be read. */
export function coreVersion(): string | null {
  if (known !== undefined) return known;
  if (typeof __CW_CORE_VERSION__ === 'string') known = __CW_CORE_VERSION__;
  else {
    try {
      // The package refers to itself by name: the same path from src/, dist/ and the bundle's chunks.
      const pjson = createRequire(import.meta.url)('@cw/core/package.json') as { version?: unknown };
      known = typeof pjson.version === 'string' ? pjson.version : null;
    } catch {
      known = null;
    }
  }
  return known;
}
