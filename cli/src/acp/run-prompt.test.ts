import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { promptText, stopReason } from './run-prompt.js';

const CWD = join('/', 'work', 'app');

describe('a prompt from an editor', () => {
  it('keeps text as it is and makes a linked file of the folder an @ mention', () => {
    const link = (path: string) => ({ type: 'resource_link' as const, name: 'f', uri: pathToFileURL(path).href });
    expect(
      promptText(
        [
          { type: 'text', text: 'why does' },
          link(join(CWD, 'src', 'math.js')),
          { type: 'text', text: 'fail with' },
          link(join(CWD, 'my notes.md')),
        ],
        CWD,
      ),
    ).toBe('why does @src/math.js fail with @"my notes.md" ');
    expect(promptText([{ type: 'resource_link', name: 'u', uri: 'https://example.com/x' }], CWD)).toBe(
      ' https://example.com/x ',
    );
  });

  it("maps why cw's loop stopped to ACP's stop reason", () => {
    expect(stopReason('answered')).toBe('end_turn');
    expect(stopReason('tool-calls-returned')).toBe('end_turn');
    expect(stopReason('step-limit')).toBe('max_turn_requests');
    expect(stopReason('interrupted')).toBe('cancelled');
  });
});
