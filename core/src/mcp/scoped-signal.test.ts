import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { scopedSignal, withScopedSignal } from './scoped-signal.js';

describe('scopedSignal', () => {
  it('hangs one listener on the parent however many requests use it, and aborts every live child', async () => {
    const parent = new AbortController();
    const children = Array.from({ length: 40 }, () => scopedSignal(parent.signal));
    // What the MCP SDK does with each request's signal: a listener it never removes.
    for (const child of children) child.signal.addEventListener('abort', () => {});
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    for (const child of children.slice(0, 20)) child.release();
    await withScopedSignal(parent.signal, async (signal) => {
      expect(signal.aborted).toBe(false);
    });
    parent.abort(new Error('stop'));
    expect(children.slice(0, 20).every((child) => !child.signal.aborted)).toBe(true);
    expect(children.slice(20).every((child) => child.signal.aborted)).toBe(true);
    expect(scopedSignal(parent.signal).signal.aborted).toBe(true);
    expect(scopedSignal(undefined).signal.aborted).toBe(false);
  });
});
