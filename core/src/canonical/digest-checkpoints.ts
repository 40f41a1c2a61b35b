import type { DigestCheckpoint } from './sha256-pieces.js';
import { SmallLru } from './small-lru.js';

// What the body digests of recent requests leave behind for the next one (docs/performance.md,
// "History digested once"): a SHA-256 midstate (or, for a short one, the bytes
// themselves: canonical/sha256-pieces.ts) can only be resumed for a prefix of the exact byte
// stream, and in both orders a body is written in, the turn items come after a few small members and
// before the rest. So each digest keeps its midstate at the end of the items, with sealed copies of the
// items it covers; the next request with the same opening and those items first resumes from there and
// writes only what was added. Members after the items (the tool declarations) keep their text instead.

/** The digests of a body as far as the end of its items, to resume from. */
export interface ItemsCheckpoint {
  /** Sealed copies of the items written, in order. */
  readonly items: readonly unknown[];
  /** The canonical UTF-8 size of each item. */
  readonly sizes: readonly number[];
  readonly canonical: DigestCheckpoint;
  readonly wire: DigestCheckpoint;
}

/**
 * A large member's texts, kept with a sealed copy of the value they were written from, or the value
 * itself when it was frozen all the way down (canonical/deep-frozen.ts).
 */
export interface KeptMember {
  readonly kept: unknown;
  readonly canonicalText: string;
  readonly canonicalBytes: Buffer;
  readonly wireBytes: Buffer;
}

/**
 * Checkpoints by the text both digests open with, up to the items, most recent first: a few
 * conversations at a time on a few routes.
 */
export const itemsCheckpoints = new SmallLru<string, readonly ItemsCheckpoint[]>(4);

/** How many conversations one opening keeps checkpoints for. */
export const CHECKPOINTS_PER_OPENING = 4;

/** Large members by their key. */
export const keptMembers = new SmallLru<string, KeptMember>(8);

/** Forgets every checkpoint and kept member (tests compare cold and warm digests). */
export function clearDigestCheckpoints(): void {
  itemsCheckpoints.clear();
  keptMembers.clear();
}
