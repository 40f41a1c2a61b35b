import { fingerprint } from '../canonical/sha256.js';
import { looksIdentifying, looksOpaque } from './opaque.js';
import { trimWhiteSpace, utf8Length } from './unicode-whitespace.js';

const MAX_PACKAGE_NAME_BYTES = 64;

// npm's rules for new package names: lower case, URL-safe, optionally one `@scope/` in front. A scope
// is the only slash a package name may have, so a path never fits this shape.
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

// Plugin names are labels too, printed by `cw plugins` and in load problems. A locally linked plugin
// may be known by its path, which does not fit the npm shape and is therefore fingerprinted.
/** A plugin's npm package name, published when it has npm's name shape and nothing secret-like in it. */
export function safePackageName(raw: string): string {
  const trimmed = trimWhiteSpace(raw);
  const publishable =
    utf8Length(trimmed) <= MAX_PACKAGE_NAME_BYTES &&
    NPM_NAME.test(trimmed) &&
    !trimmed.includes('..') &&
    !looksOpaque(trimmed) &&
    !looksIdentifying(trimmed);
  return publishable ? trimmed : fingerprint(raw);
}
