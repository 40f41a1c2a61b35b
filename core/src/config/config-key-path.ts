import { fingerprint } from '../canonical/sha256.js';
import { isShowableUserLabel } from '../redaction/safe-user-label.js';
import type { ConfigPathSegment } from './config-text.js';

/** A config key as `cw config get|set` takes it is malformed; the message is cw's words only. */
export class ConfigKeyError extends Error {
  override readonly name = 'ConfigKeyError';
  // A malformed argument is a usage error, as oclif counts them.
  readonly exitCode = 2;
  readonly safeMessage: string;
  constructor(safeMessage: string) {
    super(safeMessage);
    this.safeMessage = safeMessage;
  }
}

const WORD = /^[A-Za-z0-9_-]+$/;
const SEGMENT = /^(?:\.?([A-Za-z0-9_-]+)|\["((?:[^"\\]|\\.)*)"\]|\[([0-9]+)\])/;
const MAX_KEY_LENGTH = 1024;

/**
 * Parses a key such as `routes.local.model`, `tools.allow[0]` or `route_timeouts["my.route"]` into
 * path segments: dotted words, quoted names in brackets (for names with dots), and array indexes.
 */
export function parseConfigKey(key: string): ConfigPathSegment[] {
  if (key === '' || key.length > MAX_KEY_LENGTH)
    throw new ConfigKeyError('a config key is a dotted path, such as routes.local.model');
  const segments: ConfigPathSegment[] = [];
  let rest = key;
  while (rest !== '') {
    const match = SEGMENT.exec(rest);
    // A leading dot is required between segments, and forbidden at the very start.
    if (
      match === null ||
      (segments.length === 0 && rest.startsWith('.')) ||
      (segments.length > 0 && /^[A-Za-z0-9_-]/.test(rest))
    ) {
      throw new ConfigKeyError(
        'a config key is a dotted path such as routes.local.model; write a name with dots as ["name"] and an array index as [0]',
      );
    }
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(JSON.parse(`"${match[2]}"`) as string);
    else segments.push(Number(match[3]));
    rest = rest.slice(match[0].length);
  }
  return segments;
}

/**
 * A path as cw prints it, in the form `cw config get` takes. `fieldNames` are the schema's own; a
 * name the user chose is shown as written when it is showable, else as its fingerprint, so a secret
 * pasted as a key never prints.
 */
export function formatConfigPath(path: readonly PropertyKey[], fieldNames: ReadonlySet<string>): string {
  if (path.length === 0) return '(top level)';
  return path
    .map((segment, index) => {
      if (typeof segment === 'number') return `[${segment}]`;
      const name = String(segment);
      // cw's own field names always show; `api_key_env` would otherwise look like a secret's name.
      if (WORD.test(name) && (fieldNames.has(name) || isShowableUserLabel(name)))
        return index === 0 ? name : `.${name}`;
      if (isShowableUserLabel(name)) return `[${JSON.stringify(name)}]`;
      return `[${fingerprint(name)}]`;
    })
    .join('');
}
