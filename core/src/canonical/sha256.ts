import { createHash, hash as oneShot } from 'node:crypto';

// Text is encoded a slice at a time into one reusable buffer: handing createHash a large string is
// several times slower than handing it bytes, and encoding a whole request body at once would hold a
// second copy of it in memory (docs/performance.md).
const SLICE_CHARS = 1 << 18;
let scratch: Buffer | null = null;

/**
 * Lowercase hex SHA-256 of a string's UTF-8 bytes, or of bytes. node:crypto rather than
 * @noble/hashes on this path: it is about ten times faster on request-sized bodies; the tests
 * cross-check both give the same digest.
 */
export function sha256Hex(input: string | Uint8Array): string {
  // One call for what fits one slice: a `Hash` object is a stream, and making one costs several
  // times more than hashing a small text, most of all right after a collection (docs/performance.md).
  if (typeof input !== 'string' || input.length <= SLICE_CHARS) return oneShot('sha256', input, 'hex');
  const hash = createHash('sha256');
  // Three bytes per UTF-16 unit is the most UTF-8 a slice can need.
  scratch ??= Buffer.allocUnsafe(SLICE_CHARS * 3);
  for (let start = 0; start < input.length; ) {
    let end = Math.min(start + SLICE_CHARS, input.length);
    // Never cut a surrogate pair: each half alone would encode as U+FFFD.
    const last = input.charCodeAt(end - 1);
    if (end < input.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    const written = scratch.write(input.slice(start, end), 0, 'utf8');
    hash.update(scratch.subarray(0, written));
    start = end;
  }
  return hash.digest('hex');
}

/** A short stable fingerprint, `sha256:<12 hex>`, for a value that must not be shown. */
export function fingerprint(raw: string): string {
  return `sha256:${sha256Hex(raw).slice(0, 12)}`;
}
