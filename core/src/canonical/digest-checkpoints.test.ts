import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalBody } from './canonical-body.js';
import { canonicalJson, canonicalJsonBytes, type JsonValue } from './canonical-json.js';
import { clearDigestCheckpoints, itemsCheckpoints } from './digest-checkpoints.js';
import { sha256Hex } from './sha256.js';

type Body = { [key: string]: JsonValue };

/** What a cold computation says of a body: nothing kept from any earlier one. */
function expectCold(body: Body): void {
  const warm = canonicalBody(body, 'messages');
  expect(warm.sha256).toBe(sha256Hex(canonicalJson(body)));
  expect(warm.wireSha256).toBe(sha256Hex(JSON.stringify(body)));
  expect(warm.bytes).toBe(canonicalJsonBytes(body));
  expect(warm.wireBytes).toBe(Buffer.byteLength(JSON.stringify(body), 'utf8'));
  for (const key of Object.keys(body)) expect(warm.valueBytes(key)).toBe(canonicalJsonBytes(body[key]));
  const items = body['messages'] as JsonValue[];
  const all = [...items.keys()];
  expect(warm.itemBytes('messages', all)).toBe(
    items.reduce<number>((total, item) => total + canonicalJsonBytes(item), 0),
  );
}

const item = fc.oneof(
  fc.record({ role: fc.constantFrom('user', 'tool'), content: fc.string() }),
  fc.record({ z: fc.integer(), a: fc.array(fc.string(), { maxLength: 2 }) }),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>,
);
const bigTools = fc.array(fc.record({ name: fc.string(), text: fc.constant('x'.repeat(600)) }), { maxLength: 3 });

// One step of a loop: append items, or change what is there in place, or change the members around them.
const step = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), items: fc.array(item, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('edit-item' as const), at: fc.nat(), value: fc.string() }),
  fc.record({ kind: fc.constant('edit-tools' as const), name: fc.string() }),
  fc.record({ kind: fc.constant('model' as const), model: fc.constantFrom('a', 'b') }),
  fc.record({ kind: fc.constant('drop-last' as const) }),
);

describe('digests resumed from an earlier request', () => {
  it('are the digests a cold computation gives, whatever each step changes, in place or not', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 4 }),
        bigTools,
        fc.array(step, { maxLength: 8 }),
        (start, tools, steps) => {
          clearDigestCheckpoints();
          let model = 'a';
          const messages: JsonValue[] = [...start];
          const toolList = tools as unknown as JsonValue[];
          const body = (): Body => ({ model, messages: [...messages], tools: toolList, stream: true });
          expectCold(body());
          for (const next of steps) {
            if (next.kind === 'append') messages.push(...next.items);
            else if (next.kind === 'edit-item' && messages.length > 0) {
              // The same object, changed where it lies: only a comparison with a sealed copy notices.
              const at = next.at % messages.length;
              const target = messages[at];
              if (typeof target === 'object' && target !== null && !Array.isArray(target))
                target['content'] = next.value;
              else messages[at] = next.value;
            } else if (next.kind === 'edit-tools' && toolList.length > 0) {
              (toolList[0] as { name: string }).name = next.name;
            } else if (next.kind === 'model') model = next.model;
            else if (next.kind === 'drop-last') messages.pop();
            expectCold(body());
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('resume a loop whose next request appends to the items, and keep one checkpoint for it', () => {
    clearDigestCheckpoints();
    const messages: JsonValue[] = [{ role: 'user', content: 'first' }];
    for (let turn = 0; turn < 5; turn += 1) {
      messages.push({ role: 'assistant', content: `step ${turn}` }, { role: 'tool', content: 'é'.repeat(turn * 100) });
      expectCold({ model: 'm', messages: [...messages] });
    }
    expect(itemsCheckpoints.size).toBe(1);
    expect([...(itemsCheckpoints.get(`{"messages":[\u0000{"model":"m","messages":[`) ?? [])].length).toBe(1);
  });

  it('keep a checkpoint for each of a few conversations on one route, and each resumes its own', () => {
    clearDigestCheckpoints();
    const first: JsonValue[] = [{ role: 'user', content: 'one' }];
    const second: JsonValue[] = [{ role: 'user', content: 'two' }];
    for (let turn = 0; turn < 4; turn += 1) {
      first.push({ role: 'tool', content: `a${turn}` });
      second.push({ role: 'tool', content: `b${turn}` });
      expectCold({ model: 'm', messages: [...first] });
      expectCold({ model: 'm', messages: [...second] });
    }
    const kept = itemsCheckpoints.get('{"messages":[\u0000{"model":"m","messages":[') ?? [];
    expect(kept.map((checkpoint) => checkpoint.items.length)).toEqual([5, 5]);
  });
});

describe('a body sent again unchanged', () => {
  it('resumes its checkpoint, takes no new one, and keeps its conversation the most recent of its opening', () => {
    clearDigestCheckpoints();
    const opening = '{"messages":[\u0000{"model":"m","messages":[';
    // Tool declarations larger than a piece the digest copies: hashed where their kept bytes lie.
    const tools: JsonValue[] = [{ name: 'big', text: 'é'.repeat(5000) }];
    const first: JsonValue[] = [{ role: 'user', content: 'one' }];
    const second: JsonValue[] = [{ role: 'user', content: 'two' }];
    expectCold({ model: 'm', messages: [...first], tools });
    expectCold({ model: 'm', messages: [...second], tools });
    const kept = itemsCheckpoints.get(opening) ?? [];
    expect(kept.map((checkpoint) => checkpoint.items[0])).toEqual([second[0], first[0]]);
    const [, firstCheckpoint] = kept;
    expectCold({ model: 'm', messages: [...first], tools });
    expectCold({ model: 'm', messages: [...first], tools });
    const after = itemsCheckpoints.get(opening) ?? [];
    expect(after[0]).toBe(firstCheckpoint);
    expect(after).toHaveLength(2);
  });
});
