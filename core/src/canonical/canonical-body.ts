import { canonicalJson, canonicalView, ORDER_NOT_NATIVE, type JsonValue } from './canonical-json.js';
import { sha256Hex } from './sha256.js';
import { Sha256Pieces } from './sha256-pieces.js';
import { jsonText } from './json-text.js';

/**
 * A body's canonical and wire digests and the canonical UTF-8 sizes of its parts, from one walk of the
 * body: the sizes are read off the same key-sorted view the digest was written from, never by sorting
 * the body again, and the turn items are written one by one into the digests, so their sizes come
 * with them and the whole text is never one string (docs/performance.md).
 */
export interface CanonicalBody {
  /** The RFC 8785 canonical form of the whole body: what body_sha256 hashes. Written when first read. */
  readonly text: string;
  /** UTF-8 bytes of `text`. */
  readonly bytes: number;
  /** SHA-256 (lowercase hex) of `text`: body_sha256. */
  readonly sha256: string;
  /** The body in the builder's key order, the exact bytes the transport sends. Written when first read. */
  readonly wireText: string;
  /** SHA-256 of `wireText`: body_wire_sha256. */
  readonly wireSha256: string;
  /** UTF-8 bytes of `wireText`: the same members in another order, so the same as `bytes`. */
  readonly wireBytes: number;
  /** The canonical text of the body's value at `key`, written from the sorted view; undefined when there is none. */
  valueText(key: string): string | undefined;
  /** Canonical UTF-8 bytes of the body's value at `key`; undefined when the body has no such key. */
  valueBytes(key: string): number | undefined;
  /**
   * The same, for the member that holds most of the body (the turn items): read off the digest pass
   * like every member's size, so the items are never written a second time.
   */
  valueBytesByDifference(key: string): number | undefined;
  /** Canonical UTF-8 bytes of the elements at `indexes` of the array at `key`, summed; an absent one counts as null. */
  itemBytes(key: string, indexes: readonly number[]): number;
}

type Body = { readonly [key: string]: JsonValue };

const NULL_BYTES = 4;

/**
 * Digests a body canonically and as sent, once each, and keeps its key-sorted view to size its parts
 * from. `itemsKey` names the member that holds the turn items (the dialect's layout says which):
 * its elements are written one at a time, and their sizes kept.
 */
export function canonicalBody(body: Body, itemsKey: string | null = null): CanonicalBody {
  const view = canonicalView(body);
  if (view === ORDER_NOT_NATIVE) return slowCanonicalBody(body);
  const sorted = view as Body;
  const canonical = digestMembers(sorted, itemsKey, true);
  const wire = digestMembers(body, itemsKey, false);
  const viewBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');
  let text: string | undefined;
  let wireText: string | undefined;
  return {
    get text() {
      text ??= JSON.stringify(sorted);
      return text;
    },
    bytes: canonical.bytes,
    sha256: canonical.sha256,
    get wireText() {
      wireText ??= JSON.stringify(body);
      return wireText;
    },
    wireSha256: wire.sha256,
    wireBytes: wire.bytes,
    // Every member was written once for the digest; its text (the turn items' excepted) and size were kept.
    valueText: (key) =>
      Object.hasOwn(sorted, key) ? (canonical.texts.get(key) ?? JSON.stringify(sorted[key])) : undefined,
    valueBytes: (key) => (Object.hasOwn(sorted, key) ? canonical.sizes.get(key) : undefined),
    valueBytesByDifference: (key) => (Object.hasOwn(sorted, key) ? canonical.sizes.get(key) : undefined),
    itemBytes: (key, indexes) => {
      if (indexes.length === 0) return 0;
      const list = sorted[key];
      const sizes = key === itemsKey ? canonical.itemSizes : null;
      if (sizes !== null) {
        return indexes.reduce((total, index) => total + (sizes[index] ?? NULL_BYTES), 0);
      }
      const items = indexes.map((index) => (Array.isArray(list) ? (list[index] ?? null) : null));
      // One write of the selected elements: their sizes plus the brackets and the commas between them.
      return viewBytes(items) - 2 - (items.length - 1);
    },
  };
}

/** What one digest pass leaves: the digest and size, each member's size, and each element's of the items. */
interface DigestedMembers {
  readonly sha256: string;
  readonly bytes: number;
  readonly itemSizes: number[] | null;
  /** UTF-8 bytes of each member's value. */
  readonly sizes: Map<string, number>;
  /** The text of each member's value but the items', when asked to keep them. */
  readonly texts: Map<string, string>;
}

/**
 * The SHA-256 and UTF-8 bytes of `JSON.stringify(object)`, written member by member in the object's
 * own key order, the items array element by element, with the size of each element and each member.
 * Exact for JSON data, which canonicalView has checked the body is: no member is skipped and none has
 * a toJSON. The members but the items are written by jsonText, which reads sealed parts' text from memory.
 */
function digestMembers(object: Body, itemsKey: string | null, keepTexts: boolean): DigestedMembers {
  const pieces = new Sha256Pieces();
  let itemSizes: number[] | null = null;
  const sizes = new Map<string, number>();
  const texts = new Map<string, string>();
  pieces.write('{');
  let first = true;
  for (const key of Object.keys(object)) {
    pieces.write(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
    first = false;
    const value = object[key];
    if (key === itemsKey && Array.isArray(value)) {
      itemSizes = new Array<number>(value.length);
      let size = pieces.write('[');
      for (let index = 0; index < value.length; index += 1) {
        if (index > 0) size += pieces.write(',');
        const itemSize = pieces.write(JSON.stringify(value[index]));
        itemSizes[index] = itemSize;
        size += itemSize;
      }
      sizes.set(key, size + pieces.write(']'));
    } else {
      const text = jsonText(value);
      sizes.set(key, pieces.write(text));
      if (keepTexts) texts.set(key, text);
    }
  }
  pieces.write('}');
  return { ...pieces.digest(), itemSizes, sizes, texts };
}

/** The same sizes by serializing each part: for the rare body native stringify cannot order. */
function slowCanonicalBody(body: Body): CanonicalBody {
  const text = canonicalJson(body);
  const wireText = JSON.stringify(body);
  const bytesOf = (value: unknown): number => Buffer.byteLength(canonicalJson(value), 'utf8');
  const valueBytes = (key: string): number | undefined => (Object.hasOwn(body, key) ? bytesOf(body[key]) : undefined);
  return {
    text,
    bytes: Buffer.byteLength(text, 'utf8'),
    sha256: sha256Hex(text),
    wireText,
    wireSha256: sha256Hex(wireText),
    wireBytes: Buffer.byteLength(wireText, 'utf8'),
    valueText: (key) => (Object.hasOwn(body, key) ? canonicalJson(body[key]) : undefined),
    valueBytes,
    valueBytesByDifference: valueBytes,
    itemBytes: (key, indexes) => {
      const list = body[key];
      return indexes.reduce((total, index) => total + bytesOf(Array.isArray(list) ? (list[index] ?? null) : null), 0);
    },
  };
}
