import { fingerprint } from '../canonical/sha256.js';
import { looksIdentifying, looksOpaque } from './opaque.js';
import { trimWhiteSpace, utf8Length } from './unicode-whitespace.js';

const MAX_IDENTIFIER_BYTES = 64;
const MAX_PHRASE_BYTES = 80;

// ASCII only, so look-alike letters, invisible characters and terminal controls never pass.
const IDENTIFIER_CHARS = /^[A-Za-z0-9._+@:/-]+$/;
const PHRASE_CHARS = /^[A-Za-z0-9._+@: (),-]+$/;

/**
 * A label with no letters and seven or more digits is a phone, account or record number, not a name.
 * Tightening over the reference, which would publish `+1-555-0100`.
 */
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

/**
 * A provider id, route id, effort or tool-choice value: published trimmed only when it is a short,
 * ordinary, slash-free ASCII word; otherwise `sha256:<12 hex>` of the untrimmed value.
 */
export function safeIdentifier(raw: string): string {
  const trimmed = trimWhiteSpace(raw);
  return hasIdentifierShape(trimmed) && !trimmed.includes('/') ? trimmed : fingerprint(raw);
}

/**
 * A model id. Slash-bearing ids (`vendor/model`) are published only when they exactly match an entry of
 * the local catalog, because a path looks just like one; a vendor-looking prefix is not enough.
 */
export function safeCatalogModel(raw: string, catalog: ReadonlySet<string>): string {
  const trimmed = trimWhiteSpace(raw);
  if (!trimmed.includes('/')) return safeIdentifier(raw);
  return hasIdentifierShape(trimmed) && !trimmed.includes(':') && catalog.has(trimmed) ? trimmed : fingerprint(raw);
}

/** A display name such as `OpenAI Codex (ChatGPT)`: spaces, parentheses and commas allowed, no slashes. */
export function safePhrase(raw: string): string {
  const trimmed = trimWhiteSpace(raw);
  const publishable =
    trimmed !== '' &&
    utf8Length(trimmed) <= MAX_PHRASE_BYTES &&
    PHRASE_CHARS.test(trimmed) &&
    !looksSensitive(trimmed);
  return publishable ? trimmed : fingerprint(raw);
}
