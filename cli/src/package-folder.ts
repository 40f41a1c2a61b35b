import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// This module sits directly in the package's src folder, its compiled copy directly in dist, and the
// fast-entry bundle (dist/fast-entry.cjs) sees its own file as this one's: two folders up from any of
// them is the package folder (docs/architecture.md, "The CLI").

/** The cli package's folder. */
export const CLI_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
/** Where the build writes the package's compiled files, the fast-entry bundle and checked values. */
export const CLI_DIST = join(CLI_ROOT, 'dist');
