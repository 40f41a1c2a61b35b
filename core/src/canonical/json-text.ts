import { isSealed } from './sealed-json.js';

// The text of a sealed value (canonical/sealed-json.ts) cannot change, so it is written once per
// process: a cached tool schema goes into every request's digests as the same text
// (docs/performance.md, "Work done once per process").
const sealedTexts = new WeakMap<object, string>();

/**
 * `JSON.stringify(value)` for JSON data that canonicalView has accepted (no `undefined`, no toJSON, no
 * non-finite number), reading the text of every sealed part from memory. Walks only down to the sealed
 * parts, so it is for members that hold them (the tool declarations), not for the turn items.
 */
export function jsonText(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  // Written by hand: native stringify costs several times more right after a full collection, even
  // for a number (docs/performance.md, "Layouts that outlive a collection").
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (value === null) return 'null';
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (isSealed(value)) {
    let text = sealedTexts.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      sealedTexts.set(value, text);
    }
    return text;
  }
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ',';
      text += jsonText(value[index]);
    }
    return `${text}]`;
  }
  let text = '{';
  let first = true;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!first) text += ',';
    first = false;
    text += quoted(key);
    text += ':';
    text += jsonText((value as Record<string, unknown>)[key]);
  }
  return `${text}}`;
}

// Short strings (member names, labels, model ids) come back on every request: their quoted form is
// kept, since native stringify costs several times more right after a full collection. Native
// stringify rather than a regular expression that finds the strings needing no escapes: the
// expression's compiled code does not outlive a full garbage collection (docs/performance.md).
const QUOTED_MAX_CHARS = 64;
const QUOTED_KEPT = 1024;
const quotedTexts = new Map<string, string>();

/** `JSON.stringify(text)`: a string as a JSON string literal. */
export function quoted(text: string): string {
  if (text.length > QUOTED_MAX_CHARS) return JSON.stringify(text);
  let known = quotedTexts.get(text);
  if (known === undefined) {
    known = JSON.stringify(text);
    if (quotedTexts.size >= QUOTED_KEPT) quotedTexts.clear();
    quotedTexts.set(text, known);
  }
  return known;
}
