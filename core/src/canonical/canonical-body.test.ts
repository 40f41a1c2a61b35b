import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalBody } from './canonical-body.js';
import { sha256Hex } from './sha256.js';
import { CanonicalJsonError, canonicalJson, canonicalJsonBytes, type JsonValue } from './canonical-json.js';

const jsonObject = fc.dictionary(fc.oneof(fc.string(), fc.nat({ max: 20 }).map(String)), fc.jsonValue({ maxDepth: 3 }));
const bodyArbitrary = fc.record({
  model: fc.string(),
  messages: fc.array(fc.oneof(jsonObject, fc.jsonValue({ maxDepth: 2 })), { maxLength: 8 }),
  tools: fc.option(fc.array(jsonObject, { maxLength: 4 }), { nil: undefined }),
  extra: jsonObject,
});

describe('canonicalBody', () => {
  it('sizes a body whose keys native stringify cannot order the same way (the recursive writer)', () => {
    const body = JSON.parse('{"b":[{"2":1,"10":2},"x"],"1":{"a":true}}') as { [key: string]: JsonValue };
    const canonical = canonicalBody(body);
    expect(canonical.text).toBe(canonicalize(body));
    expect(canonical.valueBytes('b')).toBe(canonicalJsonBytes(body['b']));
    expect(canonical.valueText('b')).toBe(canonicalJson(body['b']));
    expect(canonical.valueText('absent')).toBeUndefined();
    expect(canonical.valueBytesByDifference('1')).toBe(canonicalJsonBytes(body['1']));
    expect(canonical.itemBytes('b', [0, 5])).toBe(canonicalJsonBytes(JSON.parse('{"2":1,"10":2}')) + 4);
  });

  it('writes the same text as canonicalJson and the same sizes as serializing each part alone', () => {
    fc.assert(
      fc.property(bodyArbitrary, (generated) => {
        const body = JSON.parse(JSON.stringify(generated)) as { [key: string]: JsonValue };
        const canonical = canonicalBody(body, 'messages');
        expect(canonical.text).toBe(canonicalJson(body));
        // The digests are of exactly these texts, and the wire text is the body in its own key order.
        expect(canonical.sha256).toBe(sha256Hex(canonical.text));
        expect(canonical.wireText).toBe(JSON.stringify(body));
        expect(canonical.wireSha256).toBe(sha256Hex(JSON.stringify(body)));
        expect(canonical.wireBytes).toBe(Buffer.byteLength(JSON.stringify(body), 'utf8'));
        expect(canonical.text).toBe(canonicalize(body));
        expect(canonical.bytes).toBe(Buffer.byteLength(canonical.text, 'utf8'));
        for (const [key, value] of Object.entries(body)) {
          expect(canonical.valueText(key)).toBe(canonicalJson(value));
          expect(canonical.valueBytes(key)).toBe(canonicalJsonBytes(value));
          expect(canonical.valueBytesByDifference(key)).toBe(canonicalJsonBytes(value));
          const list = Array.isArray(value) ? value : [];
          const indexes = [...list.keys()].filter((index) => index % 2 === 0).concat([list.length + 3]);
          const expected = indexes.reduce((total, index) => total + canonicalJsonBytes(list[index] ?? null), 0);
          expect(canonical.itemBytes(key, indexes)).toBe(expected);
        }
        expect(canonical.valueBytes('absent')).toBeUndefined();
        expect(canonical.valueText('absent')).toBeUndefined();
        expect(canonical.valueBytesByDifference('absent')).toBeUndefined();
        expect(canonical.itemBytes('model', [0, 1])).toBe(8);
        expect(canonical.itemBytes('messages', [])).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('counts multi-byte text and escaped keys in UTF-8 bytes', () => {
    const body = { 'ké\n': ['日本語', { b: '😀', a: '"\\' }], z: 1 };
    const canonical = canonicalBody(body);
    expect(canonical.text).toBe('{"ké\\n":["日本語",{"a":"\\"\\\\","b":"😀"}],"z":1}');
    expect(canonical.bytes).toBe(Buffer.byteLength(canonical.text, 'utf8'));
    expect(canonical.itemBytes('ké\n', [0])).toBe(11);
    expect(canonical.valueBytesByDifference('ké\n')).toBe(Buffer.byteLength('["日本語",{"a":"\\"\\\\","b":"😀"}]'));
  });

  it('rejects what canonicalJson rejects, with the path from the body root', () => {
    expect(() => canonicalBody({ messages: [{ content: '\uD800' }] })).toThrow(
      /lone surrogate in a string at \$\.<key>\[0\]\.<key>/,
    );
    expect(() => canonicalBody({ temperature: Number.NaN })).toThrow(/non-finite number at \$\.<key>/);
    // biome-ignore lint/suspicious/noSparseArray: the input must hold a sparse array
    expect(() => canonicalBody({ messages: [1, , 3] as JsonValue[] })).toThrow(/sparse array at \$\.<key>/);
    expect(() => canonicalBody({ '\uDC00': 1 })).toThrow(CanonicalJsonError);
    expect(() => canonicalBody({ when: new Date(0) as unknown as JsonValue })).toThrow(/non-plain object/);
  });

  it('digests pieces larger than its buffer, split between surrogate pairs, as the whole text', () => {
    const long = `${'😀'.repeat(200_000)}é${'a'.repeat(300_001)}`;
    const body = { messages: [{ role: 'tool', content: long }, 'x'], tools: [{ b: long, a: 1 }], z: long };
    for (const itemsKey of ['messages', 'tools', 'z', null]) {
      const canonical = canonicalBody(body, itemsKey);
      expect(canonical.sha256).toBe(sha256Hex(canonicalJson(body)));
      expect(canonical.wireSha256).toBe(sha256Hex(JSON.stringify(body)));
      expect(canonical.bytes).toBe(Buffer.byteLength(canonicalJson(body), 'utf8'));
      expect(canonical.itemBytes('messages', [0, 1, 7])).toBe(
        canonicalJsonBytes(body.messages[0]) + canonicalJsonBytes('x') + canonicalJsonBytes(null),
      );
    }
  });
});

describe('canonicalBody: a member frozen all the way down', () => {
  // Declarations long enough to be kept between bodies (canonical-body.ts, KEPT_MEMBER_CHARS).
  const declarations = (description: string): JsonValue =>
    Array.from({ length: 12 }, (_unused, index) => ({
      type: 'function',
      function: { name: `tool_${index}`, description, parameters: { type: 'object', properties: {} } },
    }));
  const deepFreeze = <Value>(value: Value): Value => {
    if (typeof value === 'object' && value !== null) {
      for (const member of Object.values(value)) deepFreeze(member);
      Object.freeze(value);
    }
    return value;
  };
  // Counts the reads of the list's members: a list found by identity is not read at all.
  const counted = (list: JsonValue): { list: JsonValue; reads: () => number } => {
    let reads = 0;
    const proxy = new Proxy(list as object, {
      get(target, key, receiver) {
        reads += 1;
        return Reflect.get(target, key, receiver);
      },
    }) as JsonValue;
    return { list: proxy, reads: () => reads };
  };
  const bodyWith = (tools: JsonValue) => ({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools });
  const cold = (tools: JsonValue) => {
    const body = JSON.parse(JSON.stringify(bodyWith(tools))) as { [key: string]: JsonValue };
    return { sha256: sha256Hex(canonicalJson(body)), wireSha256: sha256Hex(JSON.stringify(body)) };
  };

  it('is found again by identity, without reading it, and gives the digests of its bytes', () => {
    const { list, reads } = counted(deepFreeze(declarations('first')));
    const first = canonicalBody(bodyWith(list), 'messages');
    expect(reads()).toBeGreaterThan(0);
    const before = reads();
    const second = canonicalBody(bodyWith(list), 'messages');
    expect(reads()).toBe(before);
    expect(second.sha256).toBe(first.sha256);
    expect(second.sha256).toBe(cold(list).sha256);
    expect(second.wireSha256).toBe(cold(list).wireSha256);
  });

  it('writes a changed declaration again: other digests and other bytes', () => {
    const list = deepFreeze(declarations('first'));
    const first = canonicalBody(bodyWith(list), 'messages');
    const changed = deepFreeze(declarations('second'));
    const second = canonicalBody(bodyWith(changed), 'messages');
    expect(second.sha256).not.toBe(first.sha256);
    expect(second.sha256).toBe(cold(changed).sha256);
    expect(second.wireSha256).toBe(cold(changed).wireSha256);
    expect(second.valueText('tools')).toBe(canonicalJson(changed));
    // An equal list that is not frozen is compared, not trusted, and gives the same digests.
    const open = declarations('second');
    expect(canonicalBody(bodyWith(open), 'messages').sha256).toBe(second.sha256);
  });
});
