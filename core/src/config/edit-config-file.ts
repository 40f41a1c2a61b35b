import { mkdir } from 'node:fs/promises';
import { writeFileAtomic } from '../state/atomic-write.js';
import { LockTimeoutError, withFileLock } from '../state/file-lock.js';
import type { ConfigPathSegment, ConfigText } from './config-text.js';
import { editConfigText } from './config-text-edits.js';
import { type ConfigProblem, formatConfigProblem } from './config-problems.js';
import {
  type ConfigCheckOptions,
  ConfigError,
  type CwConfig,
  checkConfigText,
  configFile,
  readConfigText,
} from './cw-config.js';

/** One change to config.json: a value for a path, or `undefined` to remove it. */
export interface ConfigEdit {
  readonly path: readonly ConfigPathSegment[];
  readonly value: unknown;
}

const NOTHING_CHANGED = 'config.json: nothing was changed';

/**
 * Applies edits to config.json in `home` the way an editor would: only the edited values change, so
 * comments, field order and formatting elsewhere are kept. The result is checked whole before it is
 * written; an invalid result (or a file that does not parse) is refused with every problem listed
 * and the file left byte for byte as it was. The write is atomic and under the config lock. Returns
 * the config as written.
 */
export async function editConfigFile(
  home: string,
  edits: (current: unknown) => readonly ConfigEdit[],
  options: ConfigCheckOptions & {
    /** Checks beyond the schema (routes that must resolve), run on a result the schema accepts. */
    readonly moreProblems?: (config: CwConfig, parsed: ConfigText) => readonly ConfigProblem[];
  } = {},
): Promise<CwConfig> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  const file = configFile(home);
  try {
    return await withFileLock(file, async () => {
      const before = (await readConfigText(home)) ?? '';
      const current = await checkConfigText(before, options);
      // Edits on text that does not parse could land anywhere: the syntax is fixed by hand first.
      if (!current.ok && current.parsed.syntaxProblems.length > 0) {
        throw new ConfigError([...current.problems.map(formatConfigProblem), NOTHING_CHANGED]);
      }
      let after = before.trim() === '' ? '{}\n' : before;
      for (const edit of edits(current.parsed.value)) after = await editConfigText(after, edit.path, edit.value);
      const checked = await checkConfigText(after, options);
      const problems = checked.ok ? (options.moreProblems?.(checked.config, checked.parsed) ?? []) : checked.problems;
      if (problems.length > 0 || !checked.ok)
        throw new ConfigError([...problems.map(formatConfigProblem), NOTHING_CHANGED]);
      if (after !== before) await writeFileAtomic(file, after.endsWith('\n') ? after : `${after}\n`);
      return checked.config;
    });
  } catch (error) {
    if (error instanceof LockTimeoutError) {
      throw new ConfigError(['config.json: another cw process is changing it; try again when it finishes']);
    }
    throw error;
  }
}
