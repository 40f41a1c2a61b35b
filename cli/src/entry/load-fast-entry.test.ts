// The preview and send bundle the build wrote (load-fast-entry.ts), and which of its code caches a
// command line reads.
import { basename, join } from 'node:path';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { compileBundle } from './compile-bundle.js';
import { cacheFileFor, FAST_BUNDLE, FAST_BUNDLE_CACHE, FAST_PREVIEW_CACHE } from './load-fast-entry.js';

const scratch = mkdtempSync(join(tmpdir(), 'cw-fast-entry-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the preview and send bundle', () => {
  it('the build made the CLI bundle a cache V8 takes, and the bundle runs without it too', () => {
    const built = compileBundle(FAST_BUNDLE, FAST_BUNDLE_CACHE);
    expect(built.cache).toBe('used');
    expect(Object.keys(built.exports as object).sort()).toEqual(['fastPreview', 'fastSend']);
    // A copy beside a damaged cache: the same entries, compiled from source.
    const copy = join(scratch, 'fast-entry.cjs');
    copyFileSync(FAST_BUNDLE, copy);
    writeFileSync(`${copy}.v8cache`, readFileSync(FAST_BUNDLE_CACHE).subarray(0, 1000));
    const fromSource = compileBundle(copy, `${copy}.v8cache`);
    expect(fromSource.cache).toBe('corrupt');
    expect(Object.keys(fromSource.exports as object).sort()).toEqual(['fastPreview', 'fastSend']);
  });
});

describe('the code cache a command line reads', () => {
  it('is the preview cache for a preview with no config file, and the full one otherwise', () => {
    const none = () => false;
    const some = () => true;
    for (const word of ['preview-request', 'dryrun', 'preview_request'])
      expect(cacheFileFor(word, none)).toBe(FAST_PREVIEW_CACHE);
    expect(cacheFileFor('preview-request', some)).toBe(FAST_BUNDLE_CACHE);
    expect(cacheFileFor('send', none)).toBe(FAST_BUNDLE_CACHE);
    expect(cacheFileFor(undefined, none)).toBe(FAST_BUNDLE_CACHE);
  });

  it('is made by the build, from the very bundle', () => {
    expect(basename(FAST_PREVIEW_CACHE)).toBe('fast-entry.cjs.preview.v8cache');
    // The built bundle's own, beside it in the dist folder.
    const compiled = compileBundle(FAST_BUNDLE, `${FAST_BUNDLE}.preview.v8cache`);
    expect(compiled.cache).toBe('used');
  });
});
