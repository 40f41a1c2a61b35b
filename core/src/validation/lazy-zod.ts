import { createRequire } from 'node:module';
import type { z as Z } from 'zod';

/** The zod namespace, as the schema builders take it. */
export type Zod = typeof Z;

// zod is the largest thing the core loads (about as much start-up time as the rest of the core), and
// a preview with no config file and memoized rows never parses anything with it (docs/performance.md).
// It is loaded synchronously on first use, so parse calls stay synchronous. Every schema in the core
// goes through here, so one process holds one zod, and ZodError identity holds.
const requireFromCore = createRequire(import.meta.url);
let loaded: Zod | undefined;

/** zod itself, loaded the first time a schema is built. */
export function zod(): Zod {
  loaded ??= (requireFromCore('zod') as { z: Zod }).z;
  return loaded;
}

/**
 * A schema built from `build` the first time any property of it is read: it stands in for the schema
 * everywhere, inside other schemas too, and `instanceof` sees the real schema's class.
 */
export function lazySchema<Schema extends object>(build: (z: Zod) => Schema): Schema {
  let schema: Schema | undefined;
  const real = (): Schema => {
    schema ??= build(zod());
    return schema;
  };
  return new Proxy({} as Schema, {
    get: (_target, key) => Reflect.get(real(), key),
    has: (_target, key) => Reflect.has(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    set: (_target, key, value) => Reflect.set(real(), key, value),
  });
}
