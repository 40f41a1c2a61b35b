import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finishedStatus, toolCallView } from './tool-call-view.js';

const WS = join('/', 'work', 'app');

describe('tool call view', () => {
  it('an edit is an edit of an absolute location, with the replaced text as a diff', () => {
    const view = toolCallView(
      { name: 'edit_file', arguments: '{"path":"src/a.ts","old_text":"a - b","new_text":"a + b"}' },
      'src/a.ts',
      WS,
    );
    expect(view).toEqual({
      kind: 'edit',
      title: 'edit_file src/a.ts',
      locations: [{ path: join(WS, 'src', 'a.ts') }],
      content: [{ type: 'diff', path: join(WS, 'src', 'a.ts'), oldText: 'a - b', newText: 'a + b' }],
      rawInput: { path: 'src/a.ts', old_text: 'a - b', new_text: 'a + b' },
    });
  });

  it('kinds follow the tool; an unknown tool is other; arguments that are not an object stay raw', () => {
    expect(toolCallView({ name: 'shell', arguments: '{"command":"ls"}' }, 'ls', WS).kind).toBe('execute');
    expect(toolCallView({ name: 'read_file', arguments: '{"path":"a"}' }, 'a', WS).kind).toBe('read');
    expect(toolCallView({ name: 'search', arguments: '{"pattern":"x"}' }, '', WS)).toMatchObject({
      kind: 'search',
      title: 'search',
      locations: [],
    });
    expect(toolCallView({ name: 'mcp__x__y', arguments: 'not json' }, '', WS)).toMatchObject({
      kind: 'other',
      rawInput: 'not json',
      content: [],
    });
  });

  it('only ok is completed', () => {
    expect(finishedStatus('ok')).toBe('completed');
    for (const status of ['error', 'refused', 'invalid', 'not-executed'] as const)
      expect(finishedStatus(status)).toBe('failed');
  });
});
