import { afterEach, describe, expect, it } from 'vitest';
import { capabilityRowSchema } from '../route/capability-row.js';
import { checkWith, exactJsonText, recordCheckedValues, useCheckedValues, type CheckResult } from './checked-values.js';
import { lazySchema } from './lazy-zod.js';

const shapes = lazySchema((z) =>
  z
    .object({
      names: z.array(z.string()).readonly(),
      headers: z.record(z.string(), z.string()).default({}),
      count: z.number().int().min(0).default(0),
    })
    .strict(),
);

/** A schema that counts its calls, so a test can tell an answer from the record from a real check. */
function counted<Output>(schema: { safeParse(input: unknown): CheckResult<Output> }) {
  const calls = { count: 0 };
  return {
    calls,
    schema: {
      safeParse(input: unknown) {
        calls.count += 1;
        return schema.safeParse(input);
      },
    },
  };
}

function recorded(input: unknown) {
  const stop = recordCheckedValues();
  const first = checkWith('shapes', shapes, input);
  return { first, values: stop() };
}

afterEach(() => {
  useCheckedValues({ version: 1, entries: {} });
});

describe('checkWith', () => {
  it('answers an input checked before from the record, without running the schema', () => {
    const input = { names: ['a', 'b'], headers: { 'x-b': '2', 'x-a': '1' } };
    const { first, values } = recorded(input);
    expect(Object.keys(values.entries)).toHaveLength(1);
    expect(useCheckedValues(values)).toBe(true);
    const { calls, schema } = counted(shapes);
    const again = checkWith('shapes', schema, structuredClone(input));
    expect(calls.count).toBe(0);
    expect(again).toStrictEqual(first);
    // A record keeps its input's key order, as the schema's output does.
    expect(again.success && Object.keys(again.data.headers)).toEqual(['x-b', 'x-a']);
  });

  it('gives each caller a fresh copy, frozen exactly where the schema froze its output', () => {
    const input = { names: ['a'] };
    const { first, values } = recorded(input);
    useCheckedValues(values);
    const one = checkWith('shapes', shapes, input);
    const two = checkWith('shapes', shapes, input);
    if (!one.success || !two.success || !first.success) throw new Error('expected success');
    expect(one.data).not.toBe(two.data);
    expect(Object.isFrozen(first.data.names)).toBe(true);
    expect(Object.isFrozen(one.data.names)).toBe(true);
    expect(Object.isFrozen(one.data)).toBe(Object.isFrozen(first.data));
    expect(Object.isFrozen(one.data.headers)).toBe(Object.isFrozen(first.data.headers));
  });

  it('never records a failure: the schema names the problem every time', () => {
    const stop = recordCheckedValues();
    const failed = checkWith('shapes', shapes, { names: 'not a list' });
    expect(failed.success).toBe(false);
    expect(stop().entries).toEqual({});
  });

  it('runs the schema for inputs whose JSON text would not say what the schema sees', () => {
    const { values } = recorded({ names: [] });
    useCheckedValues(values);
    class Names {
      names = [];
    }
    const inexact: unknown[] = [
      { names: [], extra: undefined },
      { names: [], count: -0 },
      new Names(),
      Object.defineProperty({ names: [] }, 'count', { get: () => 1, enumerable: true }),
      { names: [], [Symbol('s')]: 1 },
      // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
      { names: [, 'a'] },
    ];
    for (const input of inexact) {
      const { calls, schema } = counted(shapes);
      checkWith('shapes', schema, input);
      expect(calls.count).toBe(1);
    }
  });

  it('keeps schemas apart: the same input recorded for one schema is not an answer for another', () => {
    const { values } = recorded({ names: [] });
    useCheckedValues(values);
    const { calls, schema } = counted(shapes);
    checkWith('other', schema, { names: [] });
    expect(calls.count).toBe(1);
  });

  it('ignores a file that is not a record of checks', () => {
    for (const file of [null, [], { version: 2, entries: {} }, { version: 1, entries: { k: { output: 1 } } }]) {
      expect(useCheckedValues(file)).toBe(false);
    }
  });

  it('gives the schema’s own output for a capability row, frozen parts included', () => {
    const row = {
      provider_id: 'example',
      provider_display: 'Example',
      route_id: 'example',
      dialect: 'chat-completions',
      route_shape: 'standard',
      endpoint: { base_url: 'https://api.example.com/v1', path: '/chat/completions' },
      auth: { scheme: 'bearer', api_key_env: 'EXAMPLE_API_KEY' },
      model: { default: 'm1', catalog: ['m1', 'm2'] },
      context: { window_tokens: 128000, source: 'catalog' },
      output_cap: { field: 'max_tokens', default_tokens: 4096 },
      billing: { kind: 'metered' },
      tool_schema: { dialect: 'openai-strict' },
      tool_choice: { accepted: ['auto', 'none'] },
      reasoning: null,
      provenance: { source: 'a test' },
    };
    const stop = recordCheckedValues();
    const direct = checkWith('capability-row', capabilityRowSchema, row);
    useCheckedValues(stop());
    const { calls, schema } = counted(capabilityRowSchema);
    const answered = checkWith('capability-row', schema, row);
    expect(direct.success).toBe(true);
    expect(calls.count).toBe(0);
    expect(answered).toStrictEqual(direct);
    const frozenPaths = (value: unknown, path = ''): string[] =>
      typeof value !== 'object' || value === null
        ? []
        : [
            ...(Object.isFrozen(value) ? [path] : []),
            ...Object.entries(value).flatMap(([key, child]) => frozenPaths(child, `${path}/${key}`)),
          ];
    if (!direct.success || !answered.success) throw new Error('expected success');
    expect(frozenPaths(answered.data)).toEqual(frozenPaths(direct.data));
  });
});

describe('checkWith within one process', () => {
  it('answers a check made before in this process without running the schema again', () => {
    useCheckedValues({ version: 1, entries: {} });
    const { calls, schema } = counted(shapes);
    const input = { names: ['a'], count: 2 };
    const first = checkWith('shapes', schema, input);
    const second = checkWith('shapes', schema, structuredClone(input));
    expect(calls.count).toBe(1);
    expect(second).toStrictEqual(first);
    if (!first.success || !second.success) throw new Error('expected success');
    expect(second.data).not.toBe(first.data);
    expect(Object.isFrozen(second.data.names)).toBe(true);
    // A changed input is checked again.
    checkWith('shapes', schema, { names: ['a'], count: 3 });
    expect(calls.count).toBe(2);
  });
});

describe('exactJsonText of a value frozen all the way down', () => {
  const frozen = <Value>(value: Value): Value => {
    if (typeof value === 'object' && value !== null) {
      for (const member of Object.values(value)) frozen(member);
      Object.freeze(value);
    }
    return value;
  };

  it('is its JSON text, worked out once and the same after', () => {
    const value = frozen({ route_id: 'acme', endpoint: { base_url: 'https://api.acme.test' }, models: [1, 'two'] });
    expect(exactJsonText(value)).toBe(JSON.stringify(value));
    expect(exactJsonText(value)).toBe(JSON.stringify(value));
  });

  it('is none when JSON text cannot say what it holds, the first time and after', () => {
    const value = frozen({ window: Number.NaN, nested: { zero: -0 } });
    expect(exactJsonText(value)).toBeUndefined();
    expect(exactJsonText(value)).toBeUndefined();
  });

  it('is written again for a value that is not frozen all the way down, changed in place', () => {
    const inner = { base_url: 'https://api.acme.test' };
    const value = Object.freeze({ endpoint: inner });
    expect(exactJsonText(value)).toBe(JSON.stringify(value));
    inner.base_url = 'https://elsewhere.test';
    expect(exactJsonText(value)).toBe('{"endpoint":{"base_url":"https://elsewhere.test"}}');
  });
});
