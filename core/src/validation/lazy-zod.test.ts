import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema, zod } from './lazy-zod.js';

describe('lazySchema', () => {
  it('builds the schema only when it is first used, and only once', () => {
    let builds = 0;
    const schema = lazySchema((z) => {
      builds += 1;
      return z.string().min(2);
    });
    expect(builds).toBe(0);
    expect(schema.safeParse('ab').success).toBe(true);
    expect(schema.safeParse('a').success).toBe(false);
    expect(builds).toBe(1);
  });

  it('stands in for the schema inside other schemas, defaults and errors included', () => {
    const inner = lazySchema((z) => z.number().int().default(7));
    const outer = lazySchema((z) => z.object({ n: inner }).strict());
    expect(outer.parse({})).toEqual({ n: 7 });
    const failed = outer.safeParse({ n: 1.5 });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]?.path).toEqual(['n']);
    expect(outer.safeParse({ n: 1, extra: true }).success).toBe(false);
  });

  it('is an instance of the real schema class, and its errors of zod’s error class', () => {
    const schema = lazySchema((z) => z.string());
    expect(schema).toBeInstanceOf(zod().ZodString);
    expect(schema.safeParse(1).error).toBeInstanceOf(zod().ZodError);
  });

  it('loads one zod for every schema in the core', () => {
    // The core's schemas share this zod, so a schema nested in another is the same zod's class.
    expect(zod()).toBe(zod());
    const schemas = [lazySchema((z) => z.string()), lazySchema((z) => z.number())];
    expect(Object.getPrototypeOf(Object.getPrototypeOf(schemas[0]))).toBe(
      Object.getPrototypeOf(Object.getPrototypeOf(schemas[1])),
    );
    // It is zod's CommonJS build, loaded synchronously: not the ES module a direct import gets.
    expect(zod().ZodError).not.toBe(z.ZodError);
  });
});
