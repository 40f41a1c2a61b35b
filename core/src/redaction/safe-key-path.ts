import { fingerprint } from '../canonical/sha256.js';
import { looksOpaque } from './opaque.js';

const MAX_KEY_PATH_BYTES = 64;
// The grammar capability rows check body paths against: identifier keys joined by dots.
const KEY_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * A dotted body key path (`thinking.budget_tokens`, a camelCase `settings.thinkingConfig.level`),
 * published when it has the key-path grammar, is short, and no key looks like a credential; else its
 * fingerprint. Key paths come from rows and dialects, never from a reply or the user's text, so a
 * three-part dotted name is read as a path here, where safeIdentifier would take it for a host name.
 */
export function safeKeyPath(raw: string): string {
  const publishable =
    raw.length <= MAX_KEY_PATH_BYTES && KEY_PATH.test(raw) && !raw.split('.').some((key) => looksOpaque(key));
  return publishable ? raw : fingerprint(raw);
}
