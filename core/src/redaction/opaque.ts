import { looksSecretShaped } from './secret-shapes.js';

// Words that mark a value as a credential or its name wherever they appear. `sk-` is handled below.
const OPAQUE_MARKERS = ['api_key', 'apikey', 'secret', 'password', 'bearer'] as const;

// A key prefix only counts at a token boundary: `sk-` anywhere would also fingerprint `ask-user`,
// `risk-level` and `disk-cache`.
const SK_AT_BOUNDARY = /(?<![a-z0-9])sk-/;

// Twenty ASCII alphanumerics in a row are far more often a key, hash or tenant id than a word.
const OPAQUE_RUN = /[A-Za-z0-9]{20}/;

// Values that identify a person, machine, tenant or record rather than naming a model or a setting.
// None of them is a secret, but none may be published verbatim either.
const EMAIL = /@[A-Za-z0-9-]+\.[A-Za-z0-9]/;
const IPV4 = /(?<![0-9])[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![0-9])/;
const IPV6_GAP = /::/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
// Three or more dot-separated labels ending in an alphabetic TLD-like label: a host name. Two-part
// names (`chat.completions`, `gpt-4.1`) are left alone because model ids look like that.
const HOST_NAME = /(?<![A-Za-z0-9-])(?:[A-Za-z0-9-]+\.){2,}[A-Za-z]{2,}(?![A-Za-z0-9-])/;
// The one property name that rewrites an object's prototype if a label is ever used as a key.
const PROTO_KEY = /__proto__/;
// URL schemes that run or embed content when a label ends up as a link in some viewer.
const SCRIPT_URL = /(?<![A-Za-z0-9+.-])(?:javascript|vbscript|data|file):/i;

/** True for values that look like a credential: a marker word, a key prefix, a long run, a known key shape. */
export function looksOpaque(text: string): boolean {
  const lower = text.toLowerCase();
  return (
    OPAQUE_MARKERS.some((marker) => lower.includes(marker)) ||
    SK_AT_BOUNDARY.test(lower) ||
    OPAQUE_RUN.test(text) ||
    looksSecretShaped(text)
  );
}

/** True for e-mail addresses, IP literals, UUIDs, host names, `__proto__` and script URLs: never printed bare. */
export function looksIdentifying(text: string): boolean {
  return (
    EMAIL.test(text) ||
    IPV4.test(text) ||
    IPV6_GAP.test(text) ||
    UUID.test(text) ||
    HOST_NAME.test(text) ||
    PROTO_KEY.test(text) ||
    SCRIPT_URL.test(text)
  );
}
