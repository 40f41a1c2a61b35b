import { fingerprint } from '../canonical/sha256.js';
import { looksOpaque } from './opaque.js';
import { trimWhiteSpace, utf8Length } from './unicode-whitespace.js';

const MAX_USER_LABEL_BYTES = 128;

// ASCII only, so look-alike letters, invisible characters and terminal controls never pass. `/` and
// `:` are allowed: model ids are `vendor/model` or `model:tag`, hosts carry a port.
const USER_LABEL_CHARS = /^[A-Za-z0-9._+@:/-]+$/;

// The user's own facts may name their hosts and models, but never carry a credential, an e-mail
// address, a record id, a prototype key or a script URL.
const EMAIL = /@[A-Za-z0-9-]+\.[A-Za-z0-9]/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const PROTO_KEY = /__proto__/;
const SCRIPT_URL = /(?<![A-Za-z0-9+.-])(?:javascript|vbscript|data|file):/i;

/** True when a value the user wrote in config may be shown to them as written (docs/security.md). */
export function isShowableUserLabel(raw: string): boolean {
  const trimmed = trimWhiteSpace(raw);
  return (
    trimmed !== '' &&
    utf8Length(trimmed) <= MAX_USER_LABEL_BYTES &&
    USER_LABEL_CHARS.test(trimmed) &&
    !/^[/~.]/.test(trimmed) &&
    !trimmed.includes('//') &&
    !trimmed.includes('..') &&
    !looksOpaque(trimmed) &&
    !EMAIL.test(trimmed) &&
    !UUID.test(trimmed) &&
    !PROTO_KEY.test(trimmed) &&
    !SCRIPT_URL.test(trimmed)
  );
}

// Human output only: the JSON manifest keeps the stricter labels of safe-label.ts, because it is
// made to be shared, while a table is read by the person who wrote the config.
/** A value the user wrote (a model id, route id or host), trimmed when showable; else its fingerprint. */
export function safeUserLabel(raw: string): string {
  return isShowableUserLabel(raw) ? trimWhiteSpace(raw) : fingerprint(raw);
}
