import type { JsonValue, TurnEvent, WireEvent } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { WireEventDecoder } from './wire-event-decoder.js';

/**
 * A decoder for a made-up wire: `{ text }` is text, `{ call }` opens a tool call, `{ stop }` finishes;
 * a body is its text, finished when it says so; [DONE] finishes only when `finishOnDone` is set.
 */
class TestDecoder extends WireEventDecoder {
  constructor(readonly finishOnDone = false) {
    super();
  }

  protected override onEvent(data: JsonValue): TurnEvent[] {
    const object = typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {};
    if (typeof object['text'] === 'string') return [{ type: 'text-delta', text: object['text'] }];
    if (typeof object['call'] === 'number') return this.calls.start(object['call'], 'id', 'f', '{}');
    if (typeof object['stop'] === 'string') return [{ type: 'finish', reason: object['stop'] }];
    return [];
  }

  protected override onBody(body: JsonValue): TurnEvent[] {
    return typeof body === 'string' ? [{ type: 'text-delta', text: body }] : [];
  }

  protected override onDone(): readonly TurnEvent[] {
    return this.finishOnDone ? [{ type: 'finish', reason: 'done' }] : super.onDone();
  }
}

const event = (data: JsonValue): WireEvent => ({ kind: 'event', name: null, data });
const DONE: WireEvent = { kind: 'done' };

describe('WireEventDecoder', () => {
  it('hands stream events, [DONE] and a body to the dialect', () => {
    const decoder = new TestDecoder(true);
    expect(decoder.push(event({ text: 'a' }))).toEqual([{ type: 'text-delta', text: 'a' }]);
    expect(decoder.push(event({}))).toEqual([]);
    expect(decoder.push(DONE)).toEqual([{ type: 'finish', reason: 'done' }]);
    expect(new TestDecoder().push({ kind: 'body', body: 'whole' })).toEqual([{ type: 'text-delta', text: 'whole' }]);
  });

  it('[DONE] yields nothing unless the dialect reads it, and does not end the reply then', () => {
    const decoder = new TestDecoder();
    expect(decoder.push(DONE)).toEqual([]);
    expect(decoder.push(event({ text: 'after' }))).toEqual([{ type: 'text-delta', text: 'after' }]);
  });

  it('nothing pushed after a finish event counts', () => {
    const decoder = new TestDecoder(true);
    expect(decoder.push(event({ stop: 'end' }))).toEqual([{ type: 'finish', reason: 'end' }]);
    expect(decoder.push(event({ text: 'late' }))).toEqual([]);
    expect(decoder.push(DONE)).toEqual([]);
    expect(decoder.push({ kind: 'body', body: 'late' })).toEqual([]);
  });

  it('nothing pushed after a body counts, even a body without a finish', () => {
    const decoder = new TestDecoder(true);
    expect(decoder.push({ kind: 'body', body: null })).toEqual([]);
    expect(decoder.push(event({ text: 'late' }))).toEqual([]);
    expect(decoder.push(DONE)).toEqual([]);
  });

  it('end closes the tool calls still open, in index order, once', () => {
    const decoder = new TestDecoder();
    decoder.push(event({ call: 1 }));
    decoder.push(event({ call: 0 }));
    expect(decoder.end()).toEqual([
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 1 },
    ]);
    expect(decoder.end()).toEqual([]);
  });

  it('end closes open calls after a finish too, and is empty when none are open', () => {
    const decoder = new TestDecoder();
    decoder.push(event({ call: 0 }));
    decoder.push(event({ stop: 'cut' }));
    expect(decoder.end()).toEqual([
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
    ]);
    expect(new TestDecoder().end()).toEqual([]);
  });

  it('throws on a wire event kind it does not know', () => {
    const unknown = { kind: 'other' } as unknown as WireEvent;
    expect(() => new TestDecoder().push(unknown)).toThrow('unknown wire event {"kind":"other"}');
  });
});
