import { describe, expect, it } from 'vitest';
import { isDeepFrozen } from './deep-frozen.js';

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

describe('isDeepFrozen', () => {
  it('holds plain data frozen all the way down to be frozen, again and again', () => {
    const value = deepFreeze({ a: [1, 'two', { three: null }], b: { c: true } });
    expect(isDeepFrozen(value)).toBe(true);
    expect(isDeepFrozen(value)).toBe(true);
    expect(isDeepFrozen(value.a)).toBe(true);
  });

  it('holds a value with any part not frozen, or that is not plain data, to be not frozen', () => {
    const inner = { c: true };
    expect(isDeepFrozen(Object.freeze({ a: Object.freeze([1]), b: inner }))).toBe(false);
    expect(isDeepFrozen(Object.freeze([Object.freeze({}), []]))).toBe(false);
    expect(isDeepFrozen('text')).toBe(false);
    expect(isDeepFrozen(null)).toBe(false);
    const getter = Object.freeze(Object.defineProperty({}, 'a', { get: () => Math.random(), enumerable: true }));
    expect(isDeepFrozen(getter)).toBe(false);
    expect(isDeepFrozen(Object.freeze({ [Symbol('s')]: 1 }))).toBe(false);
    expect(isDeepFrozen(Object.freeze({ f: () => 1 }))).toBe(false);
    expect(isDeepFrozen(Object.freeze(new (class Row {})()))).toBe(false);
    expect(isDeepFrozen(Object.freeze(new Date(0)))).toBe(false);
  });
});
