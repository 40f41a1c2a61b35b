import { readdirSync, readFileSync } from 'node:fs';
import canonicalize from 'canonicalize';
import stableStringify from 'json-stable-stringify';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonicalJsonError, canonicalJson, canonicalJsonBytes, type JsonValue } from './canonical-json.js';

// RFC 8785 vectors, copied byte for byte (test/fixtures/jcs/SOURCES.md).
const JCS = new URL('../../../test/fixtures/jcs/', import.meta.url);
const VECTORS = ['arrays', 'french', 'structures', 'unicode', 'values', 'weird'];

function readVector(name: string): { input: string; output: Buffer; outhex: Buffer } {
  const input = readFileSync(new URL(`input/${name}.json`, JCS), 'utf8');
  const output = readFileSync(new URL(`output/${name}.json`, JCS));
  const hexText = readFileSync(new URL(`outhex/${name}.txt`, JCS), 'ascii');
  const outhex = Buffer.from(hexText.trim().split(/\s+/).join(''), 'hex');
  return { input, output, outhex };
}

function expectRejected(value: unknown, message: RegExp): void {
  expect(() => canonicalJson(value)).toThrow(CanonicalJsonError);
  expect(() => canonicalJson(value)).toThrow(message);
}

describe('canonicalJson: RFC 8785 vectors', () => {
  it('has exactly the six official vectors on disk', () => {
    for (const dir of ['input', 'output']) {
      expect(readdirSync(new URL(`${dir}/`, JCS)).sort()).toEqual(VECTORS.map((v) => `${v}.json`));
    }
    expect(readdirSync(new URL('outhex/', JCS)).sort()).toEqual(VECTORS.map((v) => `${v}.txt`));
  });

  describe.each(VECTORS)('%s', (name) => {
    const { input, output, outhex } = readVector(name);

    it('output file and outhex file hold the same bytes (fixture intact)', () => {
      expect(outhex.length).toBeGreaterThan(0);
      expect(output.equals(outhex)).toBe(true);
      expect(output.at(-1)).not.toBe(0x0a); // no trailing newline crept in
    });

    it('canonicalizes the input to the expected UTF-8 bytes', () => {
      const text = canonicalJson(JSON.parse(input));
      const bytes = Buffer.from(text, 'utf8');
      expect(bytes.toString('hex')).toBe(output.toString('hex'));
      expect(bytes.equals(outhex)).toBe(true);
      expect(canonicalJsonBytes(JSON.parse(input))).toBe(output.length);
    });

    it('agrees with the canonicalize package and is idempotent', () => {
      const value: unknown = JSON.parse(input);
      expect(canonicalJson(value)).toBe(canonicalize(value));
      const expected = output.toString('utf8');
      expect(canonicalJson(JSON.parse(expected))).toBe(expected);
    });
  });
});

describe('canonicalJson: behaviour beyond the vectors', () => {
  it('sorts keys by UTF-16 code units, not code points or locale', () => {
    // U+1F602 is D83D DE02 in UTF-16, which sorts before U+FB33 (and U+E000), unlike code-point order.
    expect(canonicalJson({ '\uFB33': 1, '\u{1F602}': 2, '\uE000': 3, b: 4, B: 5, '10': 6, '9': 7 })).toBe(
      '{"10":6,"9":7,"B":5,"b":4,"\u{1F602}":2,"\uE000":3,"\uFB33":1}',
    );
  });

  it('formats numbers the ECMAScript way (RFC 8785 3.2.2.3)', () => {
    // biome-ignore lint/correctness/noPrecisionLoss: the test feeds literals that do not round-trip on purpose
    expect(canonicalJson([-0, 1e21, 1e-7, 0.000001, 4.5, 2e-3, 333333333.33333329, 1e30, 9007199254740993])).toBe(
      '[0,1e+21,1e-7,0.000001,4.5,0.002,333333333.3333333,1e+30,9007199254740992]',
    );
  });

  it('accepts well-formed surrogate pairs, null-prototype objects and repeated (non-cyclic) references', () => {
    const shared = { z: 1, a: [true, null] };
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { y: 'x', b: shared });
    expect(canonicalJson({ s: '\u{1F602}', left: shared, right: shared, bare })).toBe(
      '{"bare":{"b":{"a":[true,null],"z":1},"y":"x"},"left":{"a":[true,null],"z":1},"right":{"a":[true,null],"z":1},"s":"\u{1F602}"}',
    );
  });

  it('agrees with canonicalize on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 500 },
    );
  });
});

describe('canonicalJson: the native-stringify walk against two independent implementations', () => {
  // Keys that are array indexes enumerate before other keys in JavaScript, whatever the insertion
  // order, so objects with them take the recursive writer: both paths are checked here.
  const indexKey = fc.oneof(fc.nat({ max: 12 }).map(String), fc.constantFrom('4294967294', '4294967295', '01', '-1'));
  const key = fc.oneof(fc.string(), indexKey, fc.constantFrom('__proto__', 'b', 'B', '\u{1F602}', '\uFB33'));
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 1 }),
      fc.array(tie('value')),
      fc.dictionary(key, tie('value')),
    ),
  }));

  it('equals canonicalize (RFC 8785) and json-stable-stringify on JSON.parse data', () => {
    fc.assert(
      fc.property(value, (generated) => {
        const parsed: unknown = JSON.parse(JSON.stringify(generated));
        const text = canonicalJson(parsed);
        expect(text).toBe(canonicalize(parsed));
        expect(text).toBe(stableStringify(parsed));
      }),
      { numRuns: 1000 },
    );
  });

  it('keys that JavaScript enumerates out of canonical order are still sorted by UTF-16 code units', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"10":2,"9":3,"-a":4,"__proto__":5,"a":{"2":0,"1":0}}'))).toBe(
      '{"-a":4,"10":2,"9":3,"__proto__":5,"a":{"1":0,"2":0},"b":1}',
    );
  });

  it('returns already canonical values unchanged and does not mistake a shared deep value for a cycle', () => {
    let deep: JsonValue = { a: 1 };
    for (let depth = 0; depth < 100; depth += 1) deep = [deep];
    expect(canonicalJson({ left: deep, right: deep })).toBe(
      `{"left":${JSON.stringify(deep)},"right":${JSON.stringify(deep)}}`,
    );
  });

  it('finds a cycle that closes deep in the value', () => {
    const root: Record<string, unknown> = {};
    let node = root;
    for (let depth = 0; depth < 80; depth += 1) {
      const next: Record<string, unknown> = {};
      node['next'] = next;
      node = next;
    }
    node['back'] = root;
    expectRejected(root, /cycle at \$(\.<key>){81}$/);
  });
});

describe('canonicalJson: rejects what RFC 8785 cannot represent', () => {
  it('rejects lone surrogates in string values, anywhere in the tree', () => {
    for (const bad of ['\uD800', '\uDC00', 'a\uD83D', '\uDE02a', '\uDC00\uD800', '\uD83D\uD83D\uDE02\uDE02']) {
      expectRejected(bad, /lone surrogate in a string at \$/);
      expectRejected({ a: [1, { b: bad }] }, /lone surrogate in a string at \$\.<key>\[1\]\.<key>/);
      expectRejected([bad], /lone surrogate in a string at \$\[0\]/);
    }
  });

  it('rejects lone surrogates in keys', () => {
    expectRejected({ '\uD800': 1 }, /lone surrogate in a key at \$/);
    expectRejected({ ok: { ['x\uDFFF']: true } }, /lone surrogate in a key at \$\.<key>/);
  });

  it('throws exactly when canonicalize finds a lone surrogate (random UTF-16 code units)', () => {
    const codeUnits = fc.array(
      fc.oneof(fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0, max: 0xffff }), fc.constant(0x61)),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(codeUnits, (units) => {
        const text = String.fromCharCode(...units);
        let oracleThrows = false;
        try {
          canonicalize(text);
        } catch {
          oracleThrows = true;
        }
        if (oracleThrows) {
          expect(() => canonicalJson({ [text]: text })).toThrow(CanonicalJsonError);
          expect(() => canonicalJson(text)).toThrow(CanonicalJsonError);
        } else {
          expect(canonicalJson(text)).toBe(JSON.stringify(text));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects NaN and ±Infinity', () => {
    expectRejected(Number.NaN, /non-finite number at \$/);
    expectRejected({ a: Number.POSITIVE_INFINITY }, /non-finite number at \$\.<key>/);
    expectRejected([1, Number.NEGATIVE_INFINITY], /non-finite number at \$\[1\]/);
  });

  it('rejects undefined and functions (top level, in objects, in arrays)', () => {
    expectRejected(undefined, /undefined is not JSON at \$/);
    expectRejected({ a: undefined }, /undefined is not JSON at \$\.<key>/);
    expectRejected([undefined], /undefined is not JSON at \$\[0\]/);
    expectRejected(() => 1, /function is not JSON at \$/);
    expectRejected({ toJSON: () => 'x' }, /function is not JSON at \$\.<key>/);
    expectRejected([Math.max], /function is not JSON at \$\[0\]/);
  });

  it('rejects sparse arrays', () => {
    // biome-ignore lint/suspicious/noSparseArray: the input must be a sparse array
    expectRejected([1, , 3], /sparse array at \$/);
    expectRejected(new Array(2), /sparse array at \$/);
    // biome-ignore lint/suspicious/noSparseArray: the input must hold a sparse array
    expectRejected({ list: [0, , 2] }, /sparse array at \$\.<key>/);
  });

  it('rejects other non-JSON values: bigint, symbol, non-plain objects, cycles', () => {
    expectRejected(10n, /bigint is not JSON/);
    expectRejected([Symbol('s')], /symbol is not JSON/);
    expectRejected({ when: new Date(0) }, /non-plain object/);
    expectRejected(new Map([['a', 1]]), /non-plain object/);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expectRejected(cyclic, /cycle at \$\.<key>/);
    const loop: unknown[] = [];
    loop.push([loop]);
    expectRejected(loop, /cycle at \$\[0\]\[0\]/);
  });

  it('never puts the offending key or value into the message', () => {
    try {
      canonicalJson({ 'secret-key-name': { 'sk-live-123\uD800': 1 } });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CanonicalJsonError);
      expect((error as Error).message).not.toMatch(/secret|sk-live/);
    }
  });
});
