import { createHash, type Hash } from 'node:crypto';

// Pieces are encoded into one reusable buffer and hashed a buffer at a time. A serialization written
// as many small pieces is never joined into one string: V8 hands back a large JSON.stringify result
// as a rope, and the first read of its bytes copies it whole, which costs more than the hash itself
// (docs/performance.md). Three bytes per UTF-16 unit is the most UTF-8 a piece can need.
const BUFFER_BYTES = 1 << 20;
const SLICE_CHARS = BUFFER_BYTES / 4;
// Encoded pieces at least this large are hashed directly.
const DIRECT_BYTES = 4096;
let shared: Buffer | null = null;

/** A SHA-256 of text fed a piece at a time, with the UTF-8 size of every piece and of the whole. */
export class Sha256Pieces {
  // Plain fields set in the constructor, not `#` fields with initializers, and declared only (no
  // class field is emitted, which would define each as undefined first): every body makes two of
  // these, and each definition costs a new instance more (docs/performance.md).
  declare private readonly hash: Hash;
  declare private readonly buffer: Buffer;
  declare private used: number;
  declare private bytes: number;

  /** Starts empty, or where a `checkpoint` of an earlier digest left off, `bytes` already written. */
  constructor(resume?: { readonly hash: Hash; readonly bytes: number }) {
    // One buffer for every digest in turn: digests never interleave (each is written out in one call).
    shared ??= Buffer.allocUnsafe(BUFFER_BYTES);
    this.buffer = shared;
    this.used = 0;
    // A resumed digest copies the midstate and makes no hash of its own: creating one costs more than
    // hashing a small body.
    this.hash = resume === undefined ? createHash('sha256') : resume.hash.copy();
    this.bytes = resume === undefined ? 0 : resume.bytes;
  }

  /** Adds bytes already encoded (a piece kept from an earlier digest); returns their count. */
  writeBytes(bytes: Uint8Array): number {
    if (bytes.length >= DIRECT_BYTES || bytes.length > BUFFER_BYTES - this.used) this.flush();
    // A large kept piece (the tool declarations) is hashed where it lies, not copied into the buffer first.
    if (bytes.length >= DIRECT_BYTES) this.hash.update(bytes);
    else {
      this.buffer.set(bytes, this.used);
      this.used += bytes.length;
    }
    this.bytes += bytes.length;
    return bytes.length;
  }

  /** The digest so far, to resume from later (the SHA-256 midstate), and the bytes written so far. */
  checkpoint(): { readonly hash: Hash; readonly bytes: number } {
    this.flush();
    return { hash: this.hash.copy(), bytes: this.bytes };
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
    this.flush();
    return { sha256: this.hash.digest('hex'), bytes: this.bytes };
  }

  private put(text: string): number {
    const written = this.buffer.write(text, this.used, 'utf8');
    this.used += written;
    this.bytes += written;
    return written;
  }

  private flush(): void {
    if (this.used === 0) return;
    this.hash.update(this.buffer.subarray(0, this.used));
    this.used = 0;
  }
}
