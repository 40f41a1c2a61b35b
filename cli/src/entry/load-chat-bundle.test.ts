// The chat bundle the build wrote (load-chat-bundle.ts): its code cache is taken, the bundle runs
// without it too, and without the bundle the compiled modules serve. How a cache that does not fit is
// set aside is compile-bundle.test.ts's.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileBundle } from './compile-bundle.js';
import { CHAT_BUNDLE, CHAT_BUNDLE_CACHE, chatEntry } from './load-chat-bundle.js';

const scratch = mkdtempSync(join(tmpdir(), 'cw-chat-cache-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the chat bundle', () => {
  it('the build made it a cache V8 takes, and it runs without the cache too', () => {
    const built = compileBundle(CHAT_BUNDLE, CHAT_BUNDLE_CACHE);
    expect(built.cache).toBe('used');
    expect(Object.keys(built.exports as object)).toEqual(['openChat']);
    const copy = join(scratch, 'fast-chat.cjs');
    copyFileSync(CHAT_BUNDLE, copy);
    writeFileSync(`${copy}.v8cache`, readFileSync(CHAT_BUNDLE_CACHE).subarray(0, 1000));
    const fromSource = compileBundle(copy, `${copy}.v8cache`);
    expect(fromSource.cache).toBe('corrupt');
    expect(Object.keys(fromSource.exports as object)).toEqual(['openChat']);
  });

  it('takes the entry from the compiled modules when there is no bundle', async () => {
    const entry = await chatEntry(join(scratch, 'no-bundle.cjs'), join(scratch, 'no-bundle.cjs.v8cache'));
    expect(typeof entry.openChat).toBe('function');
    const bundled = await chatEntry();
    expect(entry.openChat).not.toBe(bundled.openChat);
  });
});
