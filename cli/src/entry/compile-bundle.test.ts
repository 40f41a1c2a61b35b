// The code cache of a one-file bundle (compile-bundle.ts): used when it was made from the very
// bundle and is whole, and otherwise set aside without harm — missing, made for another bundle,
// damaged, or refused by V8 — the bundle then compiles without it and does the same.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLE_HEAD, BUNDLE_TAIL, cacheFileBytes, compileBundle } from './compile-bundle.js';

const scratch = mkdtempSync(join(tmpdir(), 'cw-code-cache-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let made = 0;
/** A small CommonJS bundle in its own folder, as the build writes one; `body` is its code. */
function bundleWith(body: string): { bundle: string; cache: string } {
  made += 1;
  const bundle = join(scratch, `bundle-${made}.cjs`);
  writeFileSync(bundle, `${BUNDLE_HEAD}${body}${BUNDLE_TAIL}`);
  return { bundle, cache: `${bundle}.v8cache` };
}

const SOURCE =
  'function twice(n) { return n * 2; }\nexports.answer = twice(21);\nexports.load = () => __cwImport("node:path");\n';

/** Compiles `bundle` once without a cache, runs it, and writes the cache V8 makes of it. */
function produceCache(bundle: string, cache: string): void {
  const { script } = compileBundle(bundle, join(scratch, 'none'));
  writeFileSync(cache, cacheFileBytes(readFileSync(bundle), script.createCachedData()));
}

describe('the bundle and its code cache', () => {
  it('compiles from the cache made from the very bundle', async () => {
    const { bundle, cache } = bundleWith(SOURCE);
    produceCache(bundle, cache);
    const compiled = compileBundle(bundle, cache);
    expect(compiled.cache).toBe('used');
    expect((compiled.exports as { answer: number }).answer).toBe(42);
    // The bundle's dynamic imports go through the loader.
    const path = await (compiled.exports as { load: () => Promise<{ sep: string }> }).load();
    expect(typeof path.sep).toBe('string');
  });

  it('compiles without a cache that is missing', () => {
    const { bundle, cache } = bundleWith(SOURCE);
    const compiled = compileBundle(bundle, cache);
    expect(compiled.cache).toBe('missing');
    expect((compiled.exports as { answer: number }).answer).toBe(42);
  });

  it('sets aside a cache made from another bundle', () => {
    const { bundle, cache } = bundleWith(SOURCE);
    produceCache(bundle, cache);
    writeFileSync(bundle, `${BUNDLE_HEAD}${SOURCE.replace('21', '20')}${BUNDLE_TAIL}`);
    const compiled = compileBundle(bundle, cache);
    expect(compiled.cache).toBe('stale');
    expect((compiled.exports as { answer: number }).answer).toBe(40);
  });

  it('sets aside a damaged cache: a changed byte, a cut-off file, an empty file', () => {
    const { bundle, cache } = bundleWith(SOURCE);
    produceCache(bundle, cache);
    const whole = readFileSync(cache);
    const flipped = Buffer.from(whole);
    flipped[flipped.length - 10] = (flipped[flipped.length - 10] ?? 0) ^ 0xff;
    for (const damaged of [flipped, whole.subarray(0, whole.length - 100), whole.subarray(0, 40), Buffer.alloc(0)]) {
      writeFileSync(cache, damaged);
      const compiled = compileBundle(bundle, cache);
      expect(compiled.cache).toBe('corrupt');
      expect((compiled.exports as { answer: number }).answer).toBe(42);
    }
  });

  it('compiles without V8 data that V8 refuses, even under a header that fits', () => {
    const first = bundleWith(SOURCE);
    produceCache(first.bundle, first.cache);
    const other = bundleWith(`${SOURCE}exports.more = [1, 2, 3].map((n) => n + 1);\n`);
    const data = readFileSync(first.cache).subarray(64);
    writeFileSync(other.cache, cacheFileBytes(readFileSync(other.bundle), data));
    const compiled = compileBundle(other.bundle, other.cache);
    expect(compiled.cache).toBe('rejected');
    expect((compiled.exports as { more: number[] }).more).toEqual([2, 3, 4]);
  });

  it('hands the bundle a companion beside it, compiled once, and the package itself when the file is missing', () => {
    const companion = join(scratch, 'companion-twice.cjs');
    writeFileSync(companion, `${BUNDLE_HEAD}exports.made = {};\n${BUNDLE_TAIL}`);
    produceCache(companion, `${companion}.v8cache`);
    const seen: [string, string][] = [];
    const { bundle, cache } = bundleWith(
      'exports.same = __cwBundle("companion-twice").made === __cwBundle("companion-twice").made;\n' +
        'exports.path = __cwBundle("node:path").sep;\n',
    );
    const compiled = compileBundle(bundle, cache, { compiled: (one, file) => seen.push([file, one.cache]) });
    expect(compiled.exports).toEqual({ same: true, path: sep });
    expect(seen).toEqual([
      [companion, 'used'],
      [bundle, 'missing'],
    ]);
  });
});
