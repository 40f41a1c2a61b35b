import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonText, quoted } from './json-text.js';
import { sealJson } from './sealed-json.js';

describe('jsonText', () => {
  it('writes any JSON value, sealed or not, as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonText(value)).toBe(JSON.stringify(value));
        expect(jsonText(sealJson(value) ?? value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it('writes numbers and booleans by hand as JSON.stringify does, a non-finite number as null', () => {
    for (const value of [0, -0, 1.5, -1e-7, 1e21, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE, true, false, null])
      expect(jsonText(value)).toBe(JSON.stringify(value));
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(jsonText(value)).toBe('null');
  });
});

describe('quoted', () => {
  it('quotes any string as JSON.stringify does, kept or not, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        expect(quoted(text)).toBe(JSON.stringify(text));
        // A second time, from memory when it is short.
        expect(quoted(text)).toBe(JSON.stringify(text));
      }),
      { numRuns: 500 },
    );
  });

  it('stays exact once more strings were quoted than it keeps', () => {
    const texts = Array.from({ length: 3000 }, (_, index) => `key-${index}\u2028"\\`);
    for (const text of texts) quoted(text);
    for (const text of texts) expect(quoted(text)).toBe(JSON.stringify(text));
  });
});
