import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sha256Pieces } from './sha256-pieces.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('Sha256Pieces', () => {
  it('digests text and kept bytes of every size, in the order written, as the joined text', () => {
    const pieces = ['{"a":', 'é'.repeat(3000), ',"tools":', 'x'.repeat(5000), '😀', 'y'.repeat(4096), '}'];
    const digest = new Sha256Pieces();
    let bytes = 0;
    pieces.forEach((piece, index) => {
      // Every other piece as bytes kept from an earlier digest: small ones are copied, large ones hashed where they lie.
      bytes += index % 2 === 1 ? digest.writeBytes(Buffer.from(piece, 'utf8')) : digest.write(piece);
    });
    const joined = pieces.join('');
    expect(digest.digest()).toEqual({ sha256: sha256(joined), bytes: Buffer.byteLength(joined, 'utf8') });
    expect(bytes).toBe(Buffer.byteLength(joined, 'utf8'));
  });

  it('resumes from a checkpoint taken between pieces', () => {
    const first = new Sha256Pieces();
    first.write('opening,');
    first.writeBytes(Buffer.from('z'.repeat(8192)));
    const checkpoint = first.checkpoint();
    const resumed = new Sha256Pieces(checkpoint);
    resumed.write('tail');
    resumed.writeBytes(Buffer.from('w'.repeat(4096)));
    const text = `opening,${'z'.repeat(8192)}tail${'w'.repeat(4096)}`;
    expect(resumed.digest()).toEqual({ sha256: sha256(text), bytes: text.length });
  });

  it('keeps a short unhashed prefix as its bytes and a longer one as a midstate, and resumes either', () => {
    const short = new Sha256Pieces();
    short.write('x'.repeat(16_384));
    const kept = short.checkpoint();
    expect(kept.state).toBeInstanceOf(Uint8Array);
    const long = new Sha256Pieces();
    long.write('x'.repeat(16_385));
    expect(long.checkpoint().state).not.toBeInstanceOf(Uint8Array);
    // The bytes are a copy: the shared buffer is written over by the next digest.
    const other = new Sha256Pieces();
    other.write('y'.repeat(100));
    other.digest();
    const resumed = new Sha256Pieces(kept);
    resumed.write('z');
    const text = `${'x'.repeat(16_384)}z`;
    expect(resumed.digest()).toEqual({ sha256: sha256(text), bytes: text.length });
  });

  it('digests any run of pieces as the joined text, with or without a checkpoint, in one call or through a Hash', () => {
    // Sizes around every threshold: the direct size (4 KiB), a checkpoint kept as bytes (16 KiB), the
    // buffer (1 MiB) and its slices.
    const size = fc.oneof(
      fc.integer({ min: 0, max: 64 }),
      fc.constantFrom(4095, 4096, 4097, 16_383, 16_384, 16_385, 262_145, 1_048_577),
    );
    const piece = fc.record({ kept: fc.boolean(), length: size, char: fc.constantFrom('a', 'é', '😀') });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.option(fc.nat({ max: 8 })), (run, cut) => {
        const texts = run.map(({ length, char }) => char.repeat(Math.ceil(length / char.length)));
        let digest = new Sha256Pieces();
        texts.forEach((text, index) => {
          if (index === cut) digest = new Sha256Pieces(digest.checkpoint());
          if (run[index]?.kept) digest.writeBytes(Buffer.from(text, 'utf8'));
          else digest.write(text);
        });
        const joined = texts.join('');
        expect(digest.digest()).toEqual({ sha256: sha256(joined), bytes: Buffer.byteLength(joined, 'utf8') });
      }),
      { numRuns: 60 },
    );
  });
});
