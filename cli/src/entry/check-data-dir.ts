import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

// oclif reads the plugin data folder's package.json itself and, when it cannot, prints Node's own
// warning with the absolute path and goes on without the installed plugins. cw checks first, so a
// folder it cannot read is one clear line and a stop, never a path and never a run on fewer plugins.

/** The line to print when the plugin data folder cannot be read, or null when it can (or is not there yet). */
export function unreadableDataDirLine(dataDir: string): string | null {
  for (const path of [dataDir, join(dataDir, 'package.json')]) {
    try {
      accessSync(path, path === dataDir ? constants.R_OK | constants.X_OK : constants.R_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM')
        return `cw: the plugin data folder (CW_DATA_DIR, or plugins in the cw home) cannot be read (${code}); give your user read access to it, or set CW_DATA_DIR to a folder you own\n`;
      if (path === dataDir) return null;
    }
  }
  return null;
}
