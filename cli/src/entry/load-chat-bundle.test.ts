// The chat bundle's code cache (load-chat-bundle.ts): taken when it was made from the very bundle and
// is whole; otherwise set aside without harm (missing, made for another bundle, damaged, refused by
// V8), and the bundle compiles without it and does the same.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHAT_BUNDLE, CHAT_BUNDLE_CACHE, chatCacheBytes, chatEntry, compileChatBundle } from './load-chat-bundle.js';

const scratch = mkdtempSync(join(tmpdir(), 'cw-chat-cache-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let made = 0;
/** A small CommonJS bundle in its own file, as the build writes one; `body` is its code. */
function bundleWith(body: string): { bundle: string; cache: string } {
  made += 1;
  const bundle = join(scratch, `chat-${made}.cjs`);
  writeFileSync(bundle, body);
  return { bundle, cache: `${bundle}.v8cache` };
}

const SOURCE =
  'function twice(n) { return n * 2; }\nexports.answer = twice(21);\nexports.load = () => __cwImport("node:path");\n';

/** Compiles `bundle` once without a cache, runs it, and writes the cache V8 makes of it. */
function produceCache(bundle: string, cache: string): void {
  const { script } = compileChatBundle(bundle, join(scratch, 'none'));
  writeFileSync(cache, chatCacheBytes(readFileSync(bundle), script.createCachedData()));
}

const answerOf = (exports: unknown): number => (exports as { answer: number }).answer;

describe('the chat bundle and its code cache', () => {
  it('compiles from the cache made from the very bundle, and imports through the loader', async () => {
    const { bundle, cache } = bundleWith(SOURCE);
    produceCache(bundle, cache);
    const compiled = compileChatBundle(bundle, cache);
    expect(compiled.cached).toBe(true);
    expect(answerOf(compiled.exports)).toBe(42);
    const path = await (compiled.exports as unknown as { load: () => Promise<{ sep: string }> }).load();
    expect(typeof path.sep).toBe('string');
  });

  it('compiles without a cache that is missing or was made from another bundle', () => {
    const { bundle, cache } = bundleWith(SOURCE);
    const missing = compileChatBundle(bundle, cache);
    expect(missing.cached).toBe(false);
    expect(answerOf(missing.exports)).toBe(42);
    produceCache(bundle, cache);
    writeFileSync(bundle, SOURCE.replace('21', '20'));
    const stale = compileChatBundle(bundle, cache);
    expect(stale.cached).toBe(false);
    expect(answerOf(stale.exports)).toBe(40);
  });

  it('sets aside a damaged cache: a changed byte, a cut-off file, an empty file', () => {
    const { bundle, cache } = bundleWith(SOURCE);
    produceCache(bundle, cache);
    const whole = readFileSync(cache);
    const flipped = Buffer.from(whole);
    flipped[flipped.length - 10] = (flipped[flipped.length - 10] ?? 0) ^ 0xff;
    for (const damaged of [flipped, whole.subarray(0, whole.length - 100), whole.subarray(0, 40), Buffer.alloc(0)]) {
      writeFileSync(cache, damaged);
      const compiled = compileChatBundle(bundle, cache);
      expect(compiled.cached).toBe(false);
      expect(answerOf(compiled.exports)).toBe(42);
    }
  });

  it('compiles without V8 data that V8 refuses, even under a header that fits', () => {
    const first = bundleWith(SOURCE);
    produceCache(first.bundle, first.cache);
    const other = bundleWith(`${SOURCE}exports.more = [1, 2, 3].map((n) => n + 1);\n`);
    writeFileSync(other.cache, chatCacheBytes(readFileSync(other.bundle), readFileSync(first.cache).subarray(64)));
    const compiled = compileChatBundle(other.bundle, other.cache);
    expect(compiled.cached).toBe(false);
    expect((compiled.exports as unknown as { more: number[] }).more).toEqual([2, 3, 4]);
  });

  it('the build made the chat bundle a cache V8 takes, and the bundle runs without it too', () => {
    const built = compileChatBundle(CHAT_BUNDLE, CHAT_BUNDLE_CACHE);
    expect(built.cached).toBe(true);
    expect(Object.keys(built.exports)).toEqual(['openChat']);
    const copy = join(scratch, 'fast-chat.cjs');
    copyFileSync(CHAT_BUNDLE, copy);
    writeFileSync(`${copy}.v8cache`, readFileSync(CHAT_BUNDLE_CACHE).subarray(0, 1000));
    const fromSource = compileChatBundle(copy, `${copy}.v8cache`);
    expect(fromSource.cached).toBe(false);
    expect(Object.keys(fromSource.exports)).toEqual(['openChat']);
  });

  it('takes the entry from the compiled modules when there is no bundle', async () => {
    const entry = await chatEntry(join(scratch, 'no-bundle.cjs'), join(scratch, 'no-bundle.cjs.v8cache'));
    expect(typeof entry.openChat).toBe('function');
    const bundled = await chatEntry();
    expect(entry.openChat).not.toBe(bundled.openChat);
  });
});
