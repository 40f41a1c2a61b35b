import { describe, expect, it } from 'vitest';
import type { JsonValue } from '@cw/core/plugin';
import { setValueAt, valueAt } from './value-at.js';

describe('valueAt', () => {
  const body = { reasoning: { effort: 'high', nested: { deep: 0 } }, flat: null };

  it('walks a dotted path of object keys', () => {
    expect(valueAt(body, 'reasoning.effort')).toBe('high');
    expect(valueAt(body, 'reasoning.nested.deep')).toBe(0);
    expect(valueAt(body, 'reasoning')).toEqual(body.reasoning);
  });

  it('keeps a null that is present', () => {
    expect(valueAt(body, 'flat')).toBeNull();
  });

  it('is undefined when a step is missing or is not an object', () => {
    expect(valueAt(body, 'missing.effort')).toBeUndefined();
    expect(valueAt(body, 'reasoning.effort.more')).toBeUndefined();
    expect(valueAt(body, 'flat.key')).toBeUndefined();
    expect(valueAt({ list: [{ a: 1 }] }, 'list.0.a')).toBeUndefined();
    expect(valueAt('text', 'length')).toBeUndefined();
    expect(valueAt(undefined, 'a')).toBeUndefined();
  });
});

describe('setValueAt', () => {
  it('writes a top-level key in place, keeping key order', () => {
    const body: { [key: string]: JsonValue } = { model: 'm', stream: true };
    setValueAt(body, 'max_tokens', 10);
    expect(JSON.stringify(body)).toBe('{"model":"m","stream":true,"max_tokens":10}');
  });

  it('creates the objects on a dotted path and keeps what is already there', () => {
    const body: { [key: string]: JsonValue } = { generationConfig: { temperature: 0 } };
    setValueAt(body, 'generationConfig.maxOutputTokens', 512);
    setValueAt(body, 'a.b.c', true);
    expect(body).toEqual({ generationConfig: { temperature: 0, maxOutputTokens: 512 }, a: { b: { c: true } } });
  });
});
