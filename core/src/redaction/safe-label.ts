import { fingerprint } from '../canonical/sha256.js';
import { looksIdentifying, looksOpaque } from './opaque.js';
import { trimWhiteSpace, utf8Length } from './unicode-whitespace.js';

const MAX_IDENTIFIER_BYTES = 64;
const MAX_PHRASE_BYTES = 80;

// ASCII only, so look-alike letters, invisible characters and terminal controls never pass.
const IDENTIFIER_CHARS = /^[A-Za-z0-9._+@:/-]+$/;
const PHRASE_CHARS = /^[A-Za-z0-9._+@: (),-]+$/;

// A label with no letters and seven or more digits is a phone, account or record number, not a name
// (`+1-555-0100` has the shape of an identifier, but is not one).
function looksLikeANumber(text: string): boolean {
  return !/[A-Za-z]/.test(text) && (text.match(/[0-9]/g)?.length ?? 0) >= 7;
}

function looksSensitive(text: string): boolean {
  return looksOpaque(text) || looksIdentifying(text) || looksLikeANumber(text);
}

// The shape rules identifier and catalog model share; the `/` and `:` rules differ and are applied by each.
function hasIdentifierShape(trimmed: string): boolean {
  return (
    trimmed !== '' &&
    utf8Length(trimmed) <= MAX_IDENTIFIER_BYTES &&
    !/^[/~.]/.test(trimmed) &&
    !trimmed.includes('//') &&
    !trimmed.includes('..') &&
    IDENTIFIER_CHARS.test(trimmed) &&
    !looksSensitive(trimmed)
  );
}

// Used for provider ids, route ids, reasoning efforts and tool-choice values. The allowlist is checked on
// the trimmed value but the fingerprint covers the untrimmed one, so values that differ only in
// surrounding white space still get different fingerprints.
/** An id published trimmed only if it is a short, ordinary, slash-free ASCII word; else its fingerprint. */
export function safeIdentifier(raw: string): string {
  let safe = identifiers.get(raw);
  if (safe === undefined) {
    const trimmed = trimWhiteSpace(raw);
    safe = hasIdentifierShape(trimmed) && !trimmed.includes('/') ? trimmed : fingerprint(raw);
    if (raw.length <= MAX_REMEMBERED_CHARS) {
      if (identifiers.size >= MAX_REMEMBERED_IDENTIFIERS) identifiers.clear();
      identifiers.set(raw, safe);
    }
  }
  return safe;
}

// Every preview redacts the same few ids (the session, the route, header names): the verdict is a pure
// function of the text, so it is worked out once per text, for the texts of the last few previews.
const MAX_REMEMBERED_IDENTIFIERS = 256;
const MAX_REMEMBERED_CHARS = 256;
const identifiers = new Map<string, string>();

// A path looks just like `vendor/model`, so a vendor-looking prefix is not enough: the exact id must be
// one the route's own catalog lists.
/** A model id; one with a slash is published only when it is exactly an entry of `catalog`. */
export function safeCatalogModel(raw: string, catalog: ReadonlySet<string>): string {
  const trimmed = trimWhiteSpace(raw);
  if (!trimmed.includes('/')) return safeIdentifier(raw);
  return hasIdentifierShape(trimmed) && !trimmed.includes(':') && catalog.has(trimmed) ? trimmed : fingerprint(raw);
}

/** A display name such as `OpenAI Codex (ChatGPT)`: spaces, parentheses and commas allowed, no slashes. */
export function safePhrase(raw: string): string {
  const trimmed = trimWhiteSpace(raw);
  const publishable =
    trimmed !== '' && utf8Length(trimmed) <= MAX_PHRASE_BYTES && PHRASE_CHARS.test(trimmed) && !looksSensitive(trimmed);
  return publishable ? trimmed : fingerprint(raw);
}
