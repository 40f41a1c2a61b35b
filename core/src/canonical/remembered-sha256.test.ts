import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonBytes } from './canonical-json.js';
import { rememberedCanonicalBytes, rememberedCanonicalSha256, rememberedSha256 } from './remembered-sha256.js';
import { sha256Hex } from './sha256.js';

describe('rememberedSha256', () => {
  it('is sha256Hex, hashed or remembered', () => {
    const text = `text ${'é'.repeat(100)}`;
    expect(rememberedSha256(text)).toBe(sha256Hex(text));
    expect(rememberedSha256(`${text}`)).toBe(sha256Hex(text));
  });
});

describe('rememberedCanonicalSha256', () => {
  const digestOf = (values: readonly unknown[]): string =>
    sha256Hex(values.map((value) => canonicalJson(value)).join(''));

  it('is the digest of the values canonical texts joined, the first time and when the same values come again', () => {
    const values = () => [
      { role: 'system', content: 'You are cw.' },
      { z: 1, a: [true, null] },
    ];
    expect(rememberedCanonicalSha256(values())).toBe(digestOf(values()));
    expect(rememberedCanonicalSha256(values())).toBe(digestOf(values()));
  });

  it('is a new digest when a value changes, in place or not', () => {
    const system = { role: 'system', content: 'You are cw.' };
    const first = rememberedCanonicalSha256([system]);
    system.content = 'You are someone else.';
    const changed = rememberedCanonicalSha256([system]);
    expect(changed).not.toBe(first);
    expect(changed).toBe(digestOf([system]));
    expect(rememberedCanonicalSha256([system, system])).toBe(digestOf([system, system]));
    expect(rememberedCanonicalSha256([{ content: 'You are someone else.', role: 'system' }])).toBe(digestOf([system]));
  });
});

describe('rememberedCanonicalBytes', () => {
  const bytesOf = (values: readonly unknown[]): number =>
    values.reduce<number>((total, value) => total + canonicalJsonBytes(value), 0);

  it('is the sum of the values canonical sizes, the first time and when the same values come again', () => {
    const values = () => [
      { role: 'system', content: 'Vous êtes cw.' },
      { z: 1, a: [true, null] },
    ];
    expect(rememberedCanonicalBytes(values())).toBe(bytesOf(values()));
    expect(rememberedCanonicalBytes(values())).toBe(bytesOf(values()));
    expect(rememberedCanonicalBytes([])).toBe(0);
  });

  it('is a new size when a value changes in place, and agrees with the digest kept beside it', () => {
    const system = { role: 'system', content: 'You are cw.' };
    const first = rememberedCanonicalBytes([system]);
    system.content = 'You are someone else entirely.';
    expect(rememberedCanonicalBytes([system])).not.toBe(first);
    expect(rememberedCanonicalBytes([system])).toBe(bytesOf([system]));
    expect(rememberedCanonicalSha256([system])).toBe(sha256Hex(canonicalJson(system)));
  });
});
