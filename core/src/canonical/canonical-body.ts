import { canonicalJson, canonicalView, ORDER_NOT_NATIVE, type JsonValue } from './canonical-json.js';
import { sha256Hex } from './sha256.js';
import { Sha256Pieces } from './sha256-pieces.js';
import { jsonText, quoted } from './json-text.js';
import {
  CHECKPOINTS_PER_OPENING,
  itemsCheckpoints,
  keptMembers,
  type ItemsCheckpoint,
  type KeptMember,
} from './digest-checkpoints.js';
import { sameJson } from './same-json.js';
import { isDeepFrozen } from './deep-frozen.js';
import { sealJson } from './sealed-json.js';
import { keepLayout } from '../kept-layouts.js';

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
 * its elements are written one at a time, and their sizes kept. Items an earlier body of this process
 * had first, in the same opening, are not written again: both digests resume where that one's ended
 * (canonical/digest-checkpoints.ts).
 */
export function canonicalBody(body: Body, itemsKey: string | null = null): CanonicalBody {
  const items = itemsKey === null ? undefined : body[itemsKey];
  if (itemsKey !== null && Array.isArray(items)) {
    const resumed = itemwiseCanonicalBody(body, itemsKey, items);
    if (resumed !== null) return resumed;
  }
  return wholeCanonicalBody(body, itemsKey);
}

/** The same from one canonical view of the whole body: for bodies without items, and every error. */
function wholeCanonicalBody(body: Body, itemsKey: string | null): CanonicalBody {
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

// Members whose text is at least this long are kept between requests (the tool declarations).
const KEPT_MEMBER_CHARS = 1024;
// Openings longer than this are not worth a checkpoint's key.
const MAX_OPENING_CHARS = 1 << 16;

/** One member other than the items: its canonical view (when worked out) and both texts. */
interface MemberTexts {
  view: unknown;
  readonly canonical: string;
  readonly canonicalBytes: Buffer | null;
  readonly wire: string | Buffer;
}

/**
 * The digests written member by member, each member's canonical view worked out alone, and the items
 * resumed from a checkpoint when they start with the items it covers. Returns null for any body this
 * cannot write exactly (an index key, a value that is not JSON): the whole-body path handles those, and
 * names the problem.
 */
function itemwiseCanonicalBody(body: Body, itemsKey: string, items: readonly JsonValue[]): CanonicalBody | null {
  const prototype = Object.getPrototypeOf(body);
  if (prototype !== Object.prototype && prototype !== null) return null;
  const keys = Object.keys(body);
  for (const key of keys) if (!key.isWellFormed() || isIndexKey(key) || key === '__proto__') return null;
  const sortedKeys = [...keys].sort();
  const members = new Map<string, MemberTexts>();
  try {
    for (const key of keys) {
      if (key === itemsKey) continue;
      const member = memberTexts(key, body[key] as JsonValue);
      if (member === null) return null;
      members.set(key, member);
    }
    const canonicalOpening = opening(sortedKeys, itemsKey, members, true);
    const wireOpening = opening(keys, itemsKey, members, false);
    const checkpointKey = `${canonicalOpening}\u0000${wireOpening}`;
    const keep = checkpointKey.length <= MAX_OPENING_CHARS;
    const earlier = (keep ? itemsCheckpoints.get(checkpointKey) : undefined) ?? [];
    const reused = earlier.find((checkpoint) => startsWith(items, checkpoint.items));
    const from = reused?.items.length ?? 0;
    const sizes = reused === undefined ? [] : [...reused.sizes];
    // Canonical: resume or open, write the new items' sorted views, then the members after the items.
    const canonical = reused === undefined ? new Sha256Pieces() : new Sha256Pieces(reused.canonical);
    if (reused === undefined) canonical.write(canonicalOpening);
    for (let index = from; index < items.length; index += 1) {
      const view = canonicalView(items[index]);
      if (view === ORDER_NOT_NATIVE) return null;
      if (index > 0) canonical.write(',');
      sizes.push(canonical.write(JSON.stringify(view)));
    }
    // A body that added no items ends where its checkpoint does: that one stands, and none is taken.
    const grown = reused === undefined || from < items.length;
    const canonicalCheckpoint = keep && grown ? canonical.checkpoint() : null;
    const memberSizes = new Map<string, number>();
    // The members before the items went out in the opening (or the checkpoint): sized from their text.
    for (const key of sortedKeys) {
      if (key === itemsKey) break;
      memberSizes.set(key, Buffer.byteLength((members.get(key) as MemberTexts).canonical, 'utf8'));
    }
    memberSizes.set(itemsKey, 2 + Math.max(0, items.length - 1) + sizes.reduce((total, size) => total + size, 0));
    canonical.write(']');
    for (let index = sortedKeys.indexOf(itemsKey) + 1; index < sortedKeys.length; index += 1) {
      const key = sortedKeys[index] as string;
      const member = members.get(key) as MemberTexts;
      canonical.write(`,${quoted(key)}:`);
      memberSizes.set(
        key,
        member.canonicalBytes === null
          ? canonical.write(member.canonical)
          : canonical.writeBytes(member.canonicalBytes),
      );
    }
    canonical.write('}');
    const canonicalDigest = canonical.digest();
    // Wire: the same items, in the builder's order of members.
    const wire = reused === undefined ? new Sha256Pieces() : new Sha256Pieces(reused.wire);
    if (reused === undefined) wire.write(wireOpening);
    for (let index = from; index < items.length; index += 1) {
      if (index > 0) wire.write(',');
      wire.write(JSON.stringify(items[index]));
    }
    const wireCheckpoint = keep && grown ? wire.checkpoint() : null;
    wire.write(']');
    for (let index = keys.indexOf(itemsKey) + 1; index < keys.length; index += 1) {
      const key = keys[index] as string;
      const member = members.get(key) as MemberTexts;
      wire.write(`,${quoted(key)}:`);
      if (typeof member.wire === 'string') wire.write(member.wire);
      else wire.writeBytes(member.wire);
    }
    wire.write('}');
    const wireDigest = wire.digest();
    if (!grown && reused !== undefined && earlier[0] !== reused) {
      // Still the most recent conversation of this opening.
      itemsCheckpoints.set(checkpointKey, [reused, ...earlier.filter((checkpoint) => checkpoint !== reused)]);
    }
    if (canonicalCheckpoint !== null && wireCheckpoint !== null) {
      const kept = sealItems(items, from, reused);
      if (kept !== null) {
        // This one covers everything the one it resumed from did: it takes its place.
        const others = earlier.filter((checkpoint) => checkpoint !== reused);
        const latest: ItemsCheckpoint = { items: kept, sizes, canonical: canonicalCheckpoint, wire: wireCheckpoint };
        itemsCheckpoints.set(checkpointKey, [latest, ...others].slice(0, CHECKPOINTS_PER_OPENING));
      }
    }
    return new ResumedBody(body, itemsKey, members, memberSizes, sizes, canonicalDigest, wireDigest);
  } catch {
    // Not JSON somewhere: the whole-body path throws the error that names where.
    return null;
  }
}

/**
 * Whether a top-level key is one native stringify would not write in canonical order (what
 * `/^(?:0|[1-9][0-9]{0,9})$/` matches): such a body takes the whole path. Plain code rather than a
 * regular expression, whose compiled code does not outlive a full garbage collection (docs/performance.md).
 */
function isIndexKey(key: string): boolean {
  const length = key.length;
  if (length === 0 || length > 10) return false;
  if (length > 1 && key.charCodeAt(0) === 48) return false;
  for (let index = 0; index < length; index += 1) {
    const code = key.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** The text of a body up to its items' first element: the members before them in `order`, canonical or as sent. */
function opening(
  order: readonly string[],
  itemsKey: string,
  members: ReadonlyMap<string, MemberTexts>,
  canonical: boolean,
): string {
  let written = '{';
  for (const key of order) {
    if (key === itemsKey) break;
    const member = members.get(key) as MemberTexts;
    const value = canonical ? member.canonical : member.wire;
    written += `${quoted(key)}:${typeof value === 'string' ? value : value.toString('utf8')},`;
  }
  return `${written}${quoted(itemsKey)}:[`;
}

/** Whether the items begin with the kept ones, member for member. */
function startsWith(items: readonly JsonValue[], kept: readonly unknown[]): boolean {
  if (items.length < kept.length) return false;
  for (let index = 0; index < kept.length; index += 1) if (!sameJson(items[index], kept[index])) return false;
  return true;
}

/** The kept items and sealed copies of the new ones; null when one cannot be sealed. */
function sealItems(items: readonly JsonValue[], from: number, reused: ItemsCheckpoint | undefined): unknown[] | null {
  const kept: unknown[] = reused === undefined ? [] : [...reused.items];
  for (let index = from; index < items.length; index += 1) {
    const sealed = sealJson(items[index]);
    if (sealed === undefined) return null;
    kept.push(sealed);
  }
  return kept;
}

/** A member's texts: kept ones when it is the same value a kept member was written from. */
function memberTexts(key: string, value: JsonValue): MemberTexts | null {
  const kept = keptMembers.get(key);
  if (kept !== undefined && sameJson(value, kept.kept)) {
    return {
      view: undefined,
      canonical: kept.canonicalText,
      canonicalBytes: kept.canonicalBytes,
      wire: kept.wireBytes,
    };
  }
  const view = canonicalView(value);
  if (view === ORDER_NOT_NATIVE) return null;
  const canonical = jsonText(view);
  const wire = jsonText(value);
  if (wire.length >= KEPT_MEMBER_CHARS) {
    // A value frozen all the way down cannot change: it is kept as it is, so a dialect that hands back
    // the same frozen declarations for the same tools is found by identity, without a comparison.
    const sealed = isDeepFrozen(value) ? value : sealJson(value);
    if (sealed !== undefined) {
      const member: KeptMember = {
        kept: sealed,
        canonicalText: canonical,
        canonicalBytes: Buffer.from(canonical, 'utf8'),
        wireBytes: Buffer.from(wire, 'utf8'),
      };
      keptMembers.set(key, member);
      return { view, canonical, canonicalBytes: member.canonicalBytes, wire: member.wireBytes };
    }
  }
  return { view, canonical, canonicalBytes: null, wire };
}

// A class rather than an object of closures: a preview creates as few functions as it can
// (docs/performance.md). Fields are declared only and set in the constructor, as Sha256Pieces' are.
class ResumedBody implements CanonicalBody {
  declare readonly bytes: number;
  declare readonly sha256: string;
  declare readonly wireSha256: string;
  declare readonly wireBytes: number;
  declare private readonly body: Body;
  declare private readonly itemsKey: string;
  declare private readonly members: ReadonlyMap<string, MemberTexts>;
  declare private readonly memberSizes: ReadonlyMap<string, number>;
  declare private readonly itemSizes: readonly number[];
  declare private textWritten: string | undefined;
  declare private wireTextWritten: string | undefined;

  constructor(
    body: Body,
    itemsKey: string,
    members: ReadonlyMap<string, MemberTexts>,
    memberSizes: ReadonlyMap<string, number>,
    itemSizes: readonly number[],
    canonical: { readonly sha256: string; readonly bytes: number },
    wire: { readonly sha256: string; readonly bytes: number },
  ) {
    this.body = body;
    this.itemsKey = itemsKey;
    this.members = members;
    this.memberSizes = memberSizes;
    this.itemSizes = itemSizes;
    this.bytes = canonical.bytes;
    this.sha256 = canonical.sha256;
    this.wireSha256 = wire.sha256;
    this.wireBytes = wire.bytes;
    this.textWritten = undefined;
    this.wireTextWritten = undefined;
  }

  // Written when first read, from the body as it is then, as the whole-body path does.
  get text(): string {
    this.textWritten ??= canonicalJson(this.body);
    return this.textWritten;
  }

  get wireText(): string {
    this.wireTextWritten ??= JSON.stringify(this.body);
    return this.wireTextWritten;
  }

  valueText(key: string): string | undefined {
    return Object.hasOwn(this.body, key)
      ? (this.members.get(key)?.canonical ?? canonicalJson(this.body[key]))
      : undefined;
  }

  valueBytes(key: string): number | undefined {
    return Object.hasOwn(this.body, key) ? this.memberSizes.get(key) : undefined;
  }

  valueBytesByDifference(key: string): number | undefined {
    return Object.hasOwn(this.body, key) ? this.memberSizes.get(key) : undefined;
  }

  itemBytes(key: string, indexes: readonly number[]): number {
    if (indexes.length === 0) return 0;
    if (key === this.itemsKey) {
      let total = 0;
      for (const index of indexes) total += this.itemSizes[index] ?? NULL_BYTES;
      return total;
    }
    const list = Object.hasOwn(this.body, key) ? this.viewOf(key) : undefined;
    const selected = indexes.map((index) => (Array.isArray(list) ? (list[index] ?? null) : null));
    return Buffer.byteLength(JSON.stringify(selected), 'utf8') - 2 - (selected.length - 1);
  }

  private viewOf(key: string): unknown {
    const member = this.members.get(key);
    if (member === undefined) return canonicalView(this.body[key]);
    member.view ??= canonicalView(this.body[key]);
    return member.view;
  }
}

// One body lives as long as the module, so the next one is built through a layout that is still there.
keepLayout(new ResumedBody({}, '', new Map(), new Map(), [], { sha256: '', bytes: 0 }, { sha256: '', bytes: 0 }));

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
    pieces.write(first ? `${quoted(key)}:` : `,${quoted(key)}:`);
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
