import { canonicalJson, canonicalView, ORDER_NOT_NATIVE, type JsonValue } from './canonical-json.js';

/**
 * A body's canonical text and the canonical UTF-8 sizes of its parts, from one walk of the body: the
 * sizes are read off the same key-sorted view the text was written from, never by sorting the body
 * again, and the largest part is sized by difference rather than written twice (docs/performance.md).
 */
export interface CanonicalBody {
  /** The RFC 8785 canonical form of the whole body: what body_sha256 hashes. */
  readonly text: string;
  /** UTF-8 bytes of `text`. */
  readonly bytes: number;
  /** The canonical text of the body's value at `key`, written from the sorted view; undefined when there is none. */
  valueText(key: string): string | undefined;
  /** Canonical UTF-8 bytes of the body's value at `key`; undefined when the body has no such key. */
  valueBytes(key: string): number | undefined;
  /**
   * The same, found as what the other members leave of `bytes`: only they are written again. For the
   * member that holds most of the body (the turn items).
   */
  valueBytesByDifference(key: string): number | undefined;
  /** Canonical UTF-8 bytes of the elements at `indexes` of the array at `key`, summed; an absent one counts as null. */
  itemBytes(key: string, indexes: readonly number[]): number;
}

type Body = { readonly [key: string]: JsonValue };

/** Serializes a body canonically once and keeps its key-sorted view to size its parts from. */
export function canonicalBody(body: Body): CanonicalBody {
  const view = canonicalView(body);
  if (view === ORDER_NOT_NATIVE) return slowCanonicalBody(body);
  const sorted = view as Body;
  const text = JSON.stringify(sorted);
  const bytes = Buffer.byteLength(text, 'utf8');
  const viewBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');
  return {
    text,
    bytes,
    valueText: (key) => (Object.hasOwn(sorted, key) ? JSON.stringify(sorted[key]) : undefined),
    valueBytes: (key) => (Object.hasOwn(sorted, key) ? viewBytes(sorted[key]) : undefined),
    valueBytesByDifference: (key) => {
      if (!Object.hasOwn(sorted, key)) return undefined;
      const members = Object.keys(sorted);
      // Each member is its escaped key, a colon and its value; the commas and two braces are framing.
      let rest = 2 + members.length - 1 + viewBytes(key) + 1;
      for (const member of members) if (member !== key) rest += viewBytes(member) + 1 + viewBytes(sorted[member]);
      return bytes - rest;
    },
    itemBytes: (key, indexes) => {
      if (indexes.length === 0) return 0;
      const list = sorted[key];
      const items = indexes.map((index) => (Array.isArray(list) ? (list[index] ?? null) : null));
      // One write of the selected elements: their sizes plus the brackets and the commas between them.
      return viewBytes(items) - 2 - (items.length - 1);
    },
  };
}

/** The same sizes by serializing each part: for the rare body native stringify cannot order. */
function slowCanonicalBody(body: Body): CanonicalBody {
  const text = canonicalJson(body);
  const bytesOf = (value: unknown): number => Buffer.byteLength(canonicalJson(value), 'utf8');
  const valueBytes = (key: string): number | undefined => (Object.hasOwn(body, key) ? bytesOf(body[key]) : undefined);
  return {
    text,
    bytes: Buffer.byteLength(text, 'utf8'),
    valueText: (key) => (Object.hasOwn(body, key) ? canonicalJson(body[key]) : undefined),
    valueBytes,
    valueBytesByDifference: valueBytes,
    itemBytes: (key, indexes) => {
      const list = body[key];
      return indexes.reduce((total, index) => total + bytesOf(Array.isArray(list) ? (list[index] ?? null) : null), 0);
    },
  };
}
