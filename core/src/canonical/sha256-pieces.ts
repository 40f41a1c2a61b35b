import { createHash, hash as oneShot, type Hash } from 'node:crypto';
import { keepLayout } from '../kept-layouts.js';

// Pieces are encoded into one reusable buffer and hashed a buffer at a time. A serialization written
// as many small pieces is never joined into one string: V8 hands back a large JSON.stringify result
// as a rope, and the first read of its bytes copies it whole, which costs more than the hash itself
// (docs/performance.md). Three bytes per UTF-16 unit is the most UTF-8 a piece can need.
const BUFFER_BYTES = 1 << 20;
const SLICE_CHARS = BUFFER_BYTES / 4;
// Once a Hash is open, encoded pieces at least this large are hashed where they lie, not copied first.
const DIRECT_BYTES = 4096;
// A checkpoint of at most this many bytes, none of them hashed yet, keeps the bytes rather than a
// midstate: hashing them again costs less than the Hash object a midstate needs.
const KEPT_PREFIX_BYTES = 16 * 1024;
let shared: Buffer | null = null;

/** Where a digest can resume from: the SHA-256 midstate, or the bytes so far when they are few. */
export interface DigestCheckpoint {
  readonly state: Hash | Uint8Array;
  /** Bytes written before the checkpoint. */
  readonly bytes: number;
}

/** A SHA-256 of text fed a piece at a time, with the UTF-8 size of every piece and of the whole. */
export class Sha256Pieces {
  // Plain fields set in the constructor, not `#` fields with initializers, and declared only (no
  // class field is emitted, which would define each as undefined first): every body makes two of
  // these, and each definition costs a new instance more (docs/performance.md).
  declare private hash: Hash | null;
  declare private readonly buffer: Buffer;
  declare private used: number;
  declare private bytes: number;

  /** Starts empty, or where a `checkpoint` of an earlier digest left off. */
  constructor(resume?: DigestCheckpoint) {
    // One buffer for every digest in turn: digests never interleave (each is written out in one call).
    shared ??= Buffer.allocUnsafe(BUFFER_BYTES);
    this.buffer = shared;
    this.used = 0;
    this.bytes = 0;
    // No Hash is made until the buffer must be emptied: a body that fits it is hashed in one call,
    // and making a Hash (or copying a midstate) costs more than hashing a small body, most of all
    // right after a collection (docs/performance.md).
    this.hash = null;
    if (resume === undefined) return;
    const { state } = resume;
    if (state instanceof Uint8Array) {
      this.buffer.set(state, 0);
      this.used = state.length;
    } else this.hash = state.copy();
    this.bytes = resume.bytes;
  }

  /** Adds bytes already encoded (a piece kept from an earlier digest); returns their count. */
  writeBytes(bytes: Uint8Array): number {
    const room = BUFFER_BYTES - this.used;
    if (this.hash === null && bytes.length <= room) this.copy(bytes);
    else if (bytes.length >= DIRECT_BYTES) {
      // A large kept piece (the tool declarations) is hashed where it lies.
      this.flush();
      this.opened().update(bytes);
    } else {
      if (bytes.length > room) this.flush();
      this.copy(bytes);
    }
    this.bytes += bytes.length;
    return bytes.length;
  }

  /** The digest so far, to resume from later, and the bytes written so far. */
  checkpoint(): DigestCheckpoint {
    if (this.hash === null && this.used <= KEPT_PREFIX_BYTES) {
      return { state: Uint8Array.prototype.slice.call(this.buffer, 0, this.used), bytes: this.bytes };
    }
    this.flush();
    return { state: this.opened().copy(), bytes: this.bytes };
  }

  /** Adds a piece; returns its UTF-8 bytes. */
  write(text: string): number {
    if (text.length * 3 > BUFFER_BYTES - this.used) this.flush();
    if (text.length * 3 <= BUFFER_BYTES) return this.put(text);
    let written = 0;
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + SLICE_CHARS, text.length);
      // Never cut a surrogate pair: each half alone would encode as U+FFFD.
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
      written += this.put(text.slice(start, end));
      this.flush();
      start = end;
    }
    return written;
  }

  /** The digest (lowercase hex) and UTF-8 bytes of everything written. The digest can be taken once. */
  digest(): { readonly sha256: string; readonly bytes: number } {
    if (this.hash === null) {
      return { sha256: oneShot('sha256', this.buffer.subarray(0, this.used), 'hex'), bytes: this.bytes };
    }
    this.flush();
    return { sha256: this.hash.digest('hex'), bytes: this.bytes };
  }

  private put(text: string): number {
    const written = this.buffer.write(text, this.used, 'utf8');
    this.used += written;
    this.bytes += written;
    return written;
  }

  private copy(bytes: Uint8Array): void {
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  private opened(): Hash {
    this.hash ??= createHash('sha256');
    return this.hash;
  }

  private flush(): void {
    if (this.used === 0) return;
    this.opened().update(this.buffer.subarray(0, this.used));
    this.used = 0;
  }
}

// One digest lives as long as the module, so the next one is built through a layout that is still there.
keepLayout(new Sha256Pieces());
