import { assembleReply } from '../../../core/src/reply/assemble-reply.js';
import { describe, expect, it } from 'vitest';
import { ToolCallTracker } from './tool-call-tracker.js';

describe('ToolCallTracker', () => {
  it('starts, streams and ends one call', () => {
    const tracker = new ToolCallTracker();
    expect(tracker.start(0, 'call_a', 'read_file')).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'read_file' },
    ]);
    expect(tracker.delta(0, '{"path":')).toEqual([{ type: 'tool-call-delta', index: 0, argumentsDelta: '{"path":' }]);
    expect(tracker.end(0)).toEqual([{ type: 'tool-call-end', index: 0 }]);
  });

  it('a repeated start emits nothing unless it fills a missing id or name, and never replaces one', () => {
    const tracker = new ToolCallTracker();
    tracker.start(0, '', 'f');
    expect(tracker.start(0, 'late-id', 'other')).toEqual([
      { type: 'tool-call-start', index: 0, id: 'late-id', name: 'f' },
    ]);
    expect(tracker.start(0, 'again', 'again')).toEqual([]);
  });

  it('drops argument text for calls never started, empty text, and text after the end', () => {
    const tracker = new ToolCallTracker();
    expect(tracker.delta(3, '{}')).toEqual([]);
    tracker.start(0, 'c', 'f');
    expect(tracker.delta(0, '')).toEqual([]);
    tracker.end(0);
    expect(tracker.delta(0, 'late')).toEqual([]);
    expect(tracker.start(0, 'c2', 'g')).toEqual([]);
    expect(tracker.end(0)).toEqual([]);
  });

  it('sends the fallback arguments at the end only when none were streamed', () => {
    const quiet = new ToolCallTracker();
    quiet.start(1, 't', 'now', '{}');
    expect(quiet.end(1)).toEqual([
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 1 },
    ]);
    const streamed = new ToolCallTracker();
    streamed.start(1, 't', 'read', '{"ignored":true}');
    streamed.delta(1, '{"path":"a"}');
    expect(streamed.end(1)).toEqual([{ type: 'tool-call-end', index: 1 }]);
  });

  it('endAll closes the open calls in index order', () => {
    const tracker = new ToolCallTracker();
    tracker.start(2, 'b', 'g');
    tracker.start(0, 'a', 'f', '{}');
    tracker.start(1, 'c', 'h');
    tracker.end(1);
    expect(tracker.endAll()).toEqual([
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-end', index: 2 },
    ]);
    expect(tracker.endAll()).toEqual([]);
  });

  it('nextIndex is one past the highest index seen', () => {
    const tracker = new ToolCallTracker();
    expect(tracker.nextIndex).toBe(0);
    tracker.start(4, 'a', 'f');
    expect(tracker.nextIndex).toBe(5);
  });

  it('its events fold into the calls the assembler reports', () => {
    const tracker = new ToolCallTracker();
    const events = [
      ...tracker.start(1, 'b', 'list_dir'),
      ...tracker.start(0, 'a', 'read_file'),
      ...tracker.delta(0, '{"path":"a"}'),
      ...tracker.delta(1, '{}'),
      ...tracker.endAll(),
    ];
    expect(assembleReply(events).reply().toolCalls).toEqual([
      { id: 'a', name: 'read_file', arguments: '{"path":"a"}' },
      { id: 'b', name: 'list_dir', arguments: '{}' },
    ]);
  });
});
