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
const PROTO_KEY = /__proto__|prototype/;
const DRIVE_PATH = /^[A-Za-z]:[\\/]/;
const IPV4 = /(?<![0-9])[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![0-9])/;
const IPV6_GAP = /::/;
// No letters and seven or more digits: a phone, account or record number, not a name.
const NUMBER_LIKE = /^[^A-Za-z]*$/;
const SCRIPT_URL = /(?<![A-Za-z0-9+.-])(?:javascript|vbscript|data|file):/i;

/** True when an id the user wrote in config (a route or model id) may be shown to them as written (docs/security.md). */
export function isShowableUserLabel(raw: string): boolean {
  const trimmed = trimWhiteSpace(raw);
  return (
    hasLabelShape(trimmed) &&
    !IPV4.test(trimmed) &&
    !IPV6_GAP.test(trimmed) &&
    !(NUMBER_LIKE.test(trimmed) && (trimmed.match(/[0-9]/g)?.length ?? 0) >= 7)
  );
}

/** True when a host (and port) the user wrote in a base URL may be shown to them as written; an IPv4 address may. */
export function isShowableUserHost(raw: string): boolean {
  const trimmed = trimWhiteSpace(raw);
  // Host and port only: never a path or user info, even if a caller passes more than the authority.
  return hasLabelShape(trimmed) && !/[/@]/.test(trimmed);
}

function hasLabelShape(trimmed: string): boolean {
  return (
    trimmed !== '' &&
    utf8Length(trimmed) <= MAX_USER_LABEL_BYTES &&
    USER_LABEL_CHARS.test(trimmed) &&
    !/^[/~.]/.test(trimmed) &&
    !DRIVE_PATH.test(trimmed) &&
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
