import { describe, expect, it } from 'vitest';
import { trailingFlag, trailingFlagWarning } from './prompt-flag-warning.js';

describe('a cw flag at the end of the prompt', () => {
  it.each([
    [['--prompt', 'fix', 'it', '-r', 'zai'], '-r'],
    [['--prompt', 'fix', 'it', '--route', 'zai'], '--route'],
    [['--prompt', 'fix', 'it', '-m', 'qwen'], '-m'],
    [['--prompt', 'fix', 'it', '--model', 'deepseek/x'], '--model'],
    [['--prompt', 'fix', 'it', '-r', 'zai', '--reasoning', 'high'], '--reasoning'],
    [['--prompt', 'fix', 'it', '-s', 'work'], '-s'],
    [['--prompt', 'fix', 'it', '--max-steps', '3'], '--max-steps'],
    [['--prompt', 'fix', 'it', '--approval', 'never'], '--approval'],
    [['--prompt', 'fix', 'it', '--json'], '--json'],
    [['--prompt', 'fix', 'it', '-n'], '-n'],
    [['--prompt', 'fix', 'it', '--blocking'], '--blocking'],
    [['--prompt', 'fix', 'it', '--no-tool-runs'], '--no-tool-runs'],
    [['--prompt', 'fix', 'it', '--route=zai'], '--route'],
    [['--prompt=fix', '-m', 'qwen'], '-m'],
    [['json', '--', '--prompt', 'fix', '--reasoning', 'low'], '--reasoning'],
    [['--prompt', '-r', 'zai'], '-r'],
    [['--prompt', 'a', '--model='], '--model'],
  ])('%j ends with %s', (argv, flag) => {
    expect(trailingFlag(argv)).toBe(flag);
  });

  it.each([
    [['--prompt', 'fix', 'it']],
    [['--prompt', 'what does -r do']],
    [['--prompt', 'explain', '-r', 'and', 'more']],
    [['--prompt', 'use', 'the', '--help', 'flag']],
    [['--prompt', '-']],
    [['-r', 'zai', '--prompt', 'fix', 'it']],
    [['-r', 'zai']],
    [['--prompt', 'a', '-r=zai']],
    [['--prompt', 'a', '--unknown', 'x']],
  ])('%j does not', (argv) => {
    expect(trailingFlag(argv)).toBeNull();
    expect(trailingFlagWarning(argv)).toBeNull();
  });

  it('the warning names the flag from cw’s own list, says it was prompt text and where flags go, and nothing else', () => {
    expect(trailingFlagWarning(['--prompt', 'deploy', 'sk-test-0000', '-r', 'sk-test-0000'])).toBe(
      'warning: -r at the end of the prompt was read as prompt text, not as a flag; flags go before --prompt',
    );
  });
});
