import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { fingerprint, sha256Hex } from './sha256.js';

const utf8 = new TextEncoder();

function nobleHex(input: string | Uint8Array): string {
  return bytesToHex(sha256(typeof input === 'string' ? utf8.encode(input) : input));
}

describe('sha256Hex', () => {
  const inputs: Array<[string, string | Uint8Array]> = [
    ['empty string', ''],
    ['ascii', 'abc'],
    ['latin-1 range', 'héllo wörld, ça va?'],
    ['CJK and emoji (astral, 4-byte UTF-8)', '日本語テキスト 😂👍🏽'],
    ['combining characters, unnormalized', 'A\u030A vs \u00C5'],
    ['control characters and NUL', '\u0000\u0001\u007F\u0080\n\r\t'],
    ['canonical JSON body', '{"max_tokens":1024,"messages":[{"content":"Grüß dich","role":"user"}],"model":"m"}'],
    ['1 MiB string', 'é'.repeat(512 * 1024)],
    ['bytes', Uint8Array.from([0, 1, 2, 254, 255])],
    ['empty bytes', new Uint8Array(0)],
  ];

  it.each(inputs)('agrees with @noble/hashes: %s', (_label, input) => {
    const digest = sha256Hex(input);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).toBe(nobleHex(input));
  });

  it('hashes a string as its UTF-8 bytes', () => {
    const text = 'naïve 😂';
    expect(sha256Hex(text)).toBe(sha256Hex(utf8.encode(text)));
    expect(sha256Hex(text)).not.toBe(sha256Hex(Buffer.from(text, 'latin1')));
  });

  it('hashes text longer than one encoding slice, a surrogate pair on every slice boundary, as its UTF-8 bytes', () => {
    // 2^18 UTF-16 units per slice: an odd prefix puts a pair's two halves on either side of each cut.
    for (const prefix of ['', 'a', 'ab']) {
      const text = `${prefix}${'😂é'.repeat(300_000)}x`;
      expect(sha256Hex(text)).toBe(nobleHex(utf8.encode(text)));
    }
    const ascii = 'abc'.repeat(200_000);
    expect(sha256Hex(ascii)).toBe(nobleHex(ascii));
  });

  it('matches the FIPS 180-2 test vectors', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('fingerprint', () => {
  it("fingerprint('') is sha256:e3b0c44298fc", () => {
    expect(fingerprint('')).toBe('sha256:e3b0c44298fc');
  });

  it('is sha256: plus the first 12 hex digits of the UTF-8 digest', () => {
    for (const raw of ['abc', 'sk-ant-api03-not-a-real-key', 'Grüß 😂']) {
      expect(fingerprint(raw)).toBe(`sha256:${nobleHex(raw).slice(0, 12)}`);
      expect(fingerprint(raw)).toMatch(/^sha256:[0-9a-f]{12}$/);
    }
    expect(fingerprint('abc')).toBe('sha256:ba7816bf8f01');
  });
});
