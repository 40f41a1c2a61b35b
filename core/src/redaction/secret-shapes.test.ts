import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { looksSecretShaped, SECRET_SHAPES } from './secret-shapes.js';

const eachShape = (text: string): boolean => SECRET_SHAPES.some((shape) => shape.test(text));

// Prefixes of every shape, in both cases, so generated texts land on both sides of each boundary and tail.
const PREFIXES = [
  'sk_live_',
  'pk_test_',
  'sk_',
  'ghp_',
  'github_pat_',
  'xoxb-',
  'xapp-',
  'AKIA',
  'akia',
  'A3TX',
  'ABSK',
  'bedrock-api-key-',
  'AIza',
  'aiza',
  'eyJ',
  'EYJ',
  'hf_',
  'GSK_',
  'api_org_',
  'xai-',
  'pplx-',
  'glpat-',
  'BEGIN RSA PRIVATE KEY',
  'begin private key',
];
const TAIL = fc.string({ unit: fc.constantFrom(...'aZ09_-/+ '.split('')), maxLength: 24 });

describe('looksSecretShaped', () => {
  it('says what testing each shape on its own says', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.string({ maxLength: 4 }), fc.constantFrom(...PREFIXES), TAIL, fc.string({ maxLength: 4 })),
        (parts) => {
          const text = parts.join('');
          expect(looksSecretShaped(text)).toBe(eachShape(text));
        },
      ),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => looksSecretShaped(text) === eachShape(text)));
  });

  it('finds a credential anywhere in a text and leaves ordinary words alone', () => {
    // Plainly fake values of the real shapes, built here so that no key-shaped text sits in the file.
    const fake = 'FAKE'.repeat(4);
    expect(looksSecretShaped(`token=ghp_${fake}TEST here`)).toBe(true);
    expect(looksSecretShaped(`AKIA${fake}`)).toBe(true);
    expect(looksSecretShaped(`akia${fake.toLowerCase()}`)).toBe(false);
    expect(looksSecretShaped('risk-level eyes-only akia-style')).toBe(false);
  });
});
