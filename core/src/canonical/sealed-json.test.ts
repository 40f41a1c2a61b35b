import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, type JsonValue } from './canonical-json.js';
import { jsonText } from './json-text.js';
import { isSealed, sealJson } from './sealed-json.js';

const json = fc.jsonValue() as fc.Arbitrary<JsonValue>;

describe('sealed JSON', () => {
  it('is a frozen deep copy, sealed all the way down, that reads as the original', () => {
    fc.assert(
      fc.property(json, (value) => {
        const sealed = sealJson(value);
        expect(sealed).toEqual(value);
        const walk = (node: unknown): void => {
          if (typeof node !== 'object' || node === null) return;
          expect(isSealed(node)).toBe(true);
          expect(Object.isFrozen(node)).toBe(true);
          for (const child of Object.values(node)) walk(child);
        };
        walk(sealed);
        if (typeof value === 'object' && value !== null) expect(isSealed(value)).toBe(false);
      }),
    );
  });

  it('refuses what is not plain JSON data', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    for (const value of [{ when: new Date(0) }, { f: () => 1 }, cycle, { gone: undefined }, sparse])
      expect(sealJson(value)).toBeUndefined();
    expect(isSealed({})).toBe(false);
  });

  it('writes the same canonical text and JSON text sealed or not, the first time and every time after', () => {
    fc.assert(
      fc.property(json, json, (left, right) => {
        const sealed = sealJson(right);
        const plain = { left, right, list: [right, left] };
        const mixed = { left, right: sealed, list: [sealed, left] };
        for (let round = 0; round < 2; round += 1) {
          expect(canonicalJson(mixed)).toBe(canonicalJson(plain));
          expect(jsonText(mixed)).toBe(JSON.stringify(plain));
          expect(jsonText(sealed)).toBe(JSON.stringify(right));
        }
      }),
    );
  });
});
