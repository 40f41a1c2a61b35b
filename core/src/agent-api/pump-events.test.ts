import { describe, expect, it } from 'vitest';
import { pumpEvents } from './pump-events.js';

/** Every event a stream yields, and what it returned. */
async function drain<E, R>(stream: AsyncGenerator<E, R, undefined>): Promise<{ events: E[]; result: R }> {
  const events: E[] = [];
  for (;;) {
    const next = await stream.next();
    if (next.done === true) return { events, result: next.value };
    events.push(next.value);
  }
}

describe('pumpEvents', () => {
  it('yields what the work emits, in order, then returns its result', async () => {
    const stream = pumpEvents<number, string>(async (emit) => {
      emit(1);
      await Promise.resolve();
      emit(2);
      emit(3);
      return 'done';
    });
    expect(await drain(stream)).toEqual({ events: [1, 2, 3], result: 'done' });
  });

  it('yields every event emitted before a failure, then throws the failure', async () => {
    const failure = new Error('the turn failed');
    const stream = pumpEvents<string, never>(async (emit) => {
      emit('step-start');
      throw failure;
    });
    const first = await stream.next();
    expect(first).toEqual({ value: 'step-start', done: false });
    await expect(stream.next()).rejects.toBe(failure);
  });

  it('runs the work to its end while no one reads, keeping every event for the reader', async () => {
    let finished = false;
    let finish: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const stream = pumpEvents<number, number>(async (emit) => {
      for (let index = 0; index < 5; index++) {
        emit(index);
        await Promise.resolve();
      }
      finished = true;
      finish();
      return 5;
    });
    // The generator starts its work on the first read; after it, the work needs no further reads.
    const first = await stream.next();
    await ended;
    expect(finished).toBe(true);
    const rest = await drain(stream);
    expect([first.value, ...rest.events]).toEqual([0, 1, 2, 3, 4]);
    expect(rest.result).toBe(5);
  });
});
