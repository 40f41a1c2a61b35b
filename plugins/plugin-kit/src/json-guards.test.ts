import type { JsonValue } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { arrayAt, hasType, isJsonObject, numberAt, objectAt, stringAt } from './json-guards.js';

const odd: (JsonValue | undefined)[] = [undefined, null, 'text', 7, true, [], [{ key: 1 }]];

describe('isJsonObject', () => {
  it('accepts plain objects, empty or not', () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject({ key: null })).toBe(true);
  });

  it('rejects null, arrays, primitives and undefined', () => {
    for (const value of odd) expect(isJsonObject(value)).toBe(false);
  });
});

describe('objectAt / arrayAt / stringAt / numberAt', () => {
  const value: JsonValue = { object: { a: 1 }, array: [1, 'two'], string: 'hi', number: 0, nothing: null };

  it('return the child when it has the asked type', () => {
    expect(objectAt(value, 'object')).toEqual({ a: 1 });
    expect(arrayAt(value, 'array')).toEqual([1, 'two']);
    expect(stringAt(value, 'string')).toBe('hi');
    expect(numberAt(value, 'number')).toBe(0);
  });

  it('return the empty value when the child has another type or is missing', () => {
    for (const key of ['object', 'array', 'string', 'number', 'nothing', 'missing']) {
      if (key !== 'object') expect(objectAt(value, key)).toEqual({});
      if (key !== 'array') expect(arrayAt(value, key)).toEqual([]);
      if (key !== 'string') expect(stringAt(value, key)).toBe('');
      if (key !== 'number') expect(numberAt(value, key)).toBeNull();
    }
  });

  it('return the empty value when the parent is not an object', () => {
    for (const parent of odd) {
      expect(objectAt(parent, 'length')).toEqual({});
      expect(arrayAt(parent, '0')).toEqual([]);
      expect(stringAt(parent, '0')).toBe('');
      expect(numberAt(parent, 'length')).toBeNull();
    }
  });
});

describe('hasType', () => {
  it('matches an object whose type is one of the listed', () => {
    expect(hasType({ type: 'image' }, ['image', 'document'])).toBe(true);
    expect(hasType({ type: 'document' }, ['image', 'document'])).toBe(true);
  });

  it('rejects other types, a missing or non-string type, and non-objects', () => {
    expect(hasType({ type: 'text' }, ['image'])).toBe(false);
    expect(hasType({}, ['image'])).toBe(false);
    expect(hasType({ type: 3 }, ['3'])).toBe(false);
    expect(hasType(['image'], ['image'])).toBe(false);
    expect(hasType('image', ['image'])).toBe(false);
  });
});
