import { describe, expect, it } from 'vitest';
import { UsageError } from './usage-error.js';
import { mcpPromptChoice } from './mcp-prompt-flags.js';

const USAGE = 'Usage: cw send';

describe('mcpPromptChoice', () => {
  it('takes server/name and its name=value arguments, values kept whole', () => {
    expect(
      mcpPromptChoice(
        { 'mcp-prompt': 'everything/args-prompt', arg: ['city=Lyon', 'note=a=b', 'empty='] },
        undefined,
        USAGE,
      ),
    ).toEqual({ ref: 'everything/args-prompt', args: { city: 'Lyon', note: 'a=b', empty: '' } });
    expect(mcpPromptChoice({}, 'typed', USAGE)).toBeNull();
  });

  it('refuses --arg without --mcp-prompt, both prompt sources, a pair without a name, and a name twice', () => {
    const cases: [Parameters<typeof mcpPromptChoice>[0], string | undefined, RegExp][] = [
      [{ arg: ['city=Lyon'] }, undefined, /name the prompt too/],
      [{ 'mcp-prompt': 'a/b' }, 'typed', /use one of them/],
      [{ 'mcp-prompt': 'a/b', arg: ['Lyon'] }, undefined, /`--arg` 1 is not name=value/],
      [{ 'mcp-prompt': 'a/b', arg: ['=Lyon'] }, undefined, /`--arg` 1 is not name=value/],
      [{ 'mcp-prompt': 'a/b', arg: ['city=x', 'city=y'] }, undefined, /`--arg` 2 repeats an earlier name/],
    ];
    for (const [flags, prompt, message] of cases) {
      const error = (() => {
        try {
          mcpPromptChoice(flags, prompt, USAGE);
          return null;
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(message);
      // A value is never echoed: it may be anything the user typed.
      expect((error as Error).message).not.toContain('Lyon');
    }
  });
});
