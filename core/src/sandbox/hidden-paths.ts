import { isAbsolute, join, resolve } from 'node:path';

/** A path commands must not see, with the label cw may print for it. */
export interface HiddenPath {
  /** Absolute path; never printed. */
  readonly path: string;
  /** What cw prints: `~/.ssh`, `cw home`, `deny_read entry 1`. */
  readonly label: string;
}

/** Credentials that live under the home folder by convention; each is hidden from every sandboxed command. */
export const HIDDEN_UNDER_HOME = [
  '.ssh',
  '.aws',
  '.config/gcloud',
  '.config/gh',
  '.netrc',
  '.npmrc',
  '.docker',
  '.gnupg',
  '.kube',
  '.git-credentials',
  // cw's own homes, old and default, besides the one in use (always hidden below).
  '.cw',
  '.config/cw',
] as const;

/**
 * Everything a sandboxed command must not see: the credential folders under the home folder, the cw
 * home (config, every session of every project) and the config's `deny_read` entries.
 */
export function hiddenPaths(options: {
  readonly home: string;
  readonly cwHome: string;
  readonly denyRead: readonly string[];
  readonly cwd: string;
}): HiddenPath[] {
  const out: HiddenPath[] = HIDDEN_UNDER_HOME.map((name) => ({ path: join(options.home, name), label: `~/${name}` }));
  out.push({ path: resolve(options.cwHome), label: 'cw home' });
  options.denyRead.forEach((entry, index) => {
    const path = entry === '~' || entry.startsWith('~/') ? join(options.home, entry.slice(1)) : entry;
    out.push({
      path: isAbsolute(path) ? resolve(path) : resolve(options.cwd, path),
      label: `deny_read entry ${index + 1}`,
    });
  });
  return out;
}
