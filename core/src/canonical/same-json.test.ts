import { describe, expect, it } from 'vitest';
import { sameJson } from './same-json.js';
import { sealJson } from './sealed-json.js';

describe('sameJson', () => {
  const kept = sealJson({ type: 'function', function: { name: 'read', parameters: { a: [1, 'x'] } } });

  it('holds a value with the same members in the same order to be the same, again and again', () => {
    const value = () => ({ type: 'function', function: { name: 'read', parameters: { a: [1, 'x'] } } });
    expect(sameJson(value(), kept)).toBe(true);
    expect(sameJson(value(), kept)).toBe(true);
    expect(sameJson(value(), { ...value() })).toBe(true);
  });

  it('tells a member missing, added, reordered or changed, deep or not', () => {
    expect(sameJson({ type: 'function' }, kept)).toBe(false);
    expect(sameJson({ type: 'function', function: kept?.function, extra: 1 }, kept)).toBe(false);
    expect(sameJson({ function: kept?.function, type: 'function' }, kept)).toBe(false);
    expect(sameJson({ type: 'function', function: { name: 'read', parameters: { a: [1, 'y'] } } }, kept)).toBe(false);
    expect(sameJson({ type: 'function', function: { name: 'read', parameters: { a: [1] } } }, kept)).toBe(false);
  });

  it('holds a class instance or an object with inherited members to be different', () => {
    class Tool {
      type = 'function';
      function = kept?.function;
    }
    expect(sameJson(new Tool(), kept)).toBe(false);
    const inherited = Object.assign(Object.create({ extra: 1 }), { type: 'function', function: kept?.function });
    expect(sameJson(inherited, kept)).toBe(false);
  });
});
