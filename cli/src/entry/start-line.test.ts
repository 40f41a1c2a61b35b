import { describe, expect, it } from 'vitest';
import { isPromptWord, readStartLine, takeBareResume } from './start-line.js';

// `cw` with no command: each start line becomes the line of the command that runs it.

describe('readStartLine', () => {
  it.each([
    [['-h'], { kind: 'help' }],
    [['--help'], { kind: 'help' }],
    [['-v'], { kind: 'version' }],
    [['-m', 'x', '--version'], { kind: 'version' }],
  ])('%j', (args, expected) => {
    expect(readStartLine(args, true)).toEqual(expected);
  });

  it('cw -p is cw send: its flags kept, the prompt the rest of the line', () => {
    expect(readStartLine(['-p', 'fix', 'the', 'test'], true)).toEqual({
      kind: 'print',
      argv: ['--prompt', 'fix', 'the', 'test'],
      session: { kind: 'none' },
      prompted: true,
    });
    expect(readStartLine(['--json', '--print', '-m', 'x', '--max-steps', '3', 'hi'], true)).toMatchObject({
      kind: 'print',
      argv: ['--json', '-m', 'x', '--max-steps', '3', '--prompt', 'hi'],
    });
    expect(readStartLine(['-p', '--output-format', 'stream-json', '--prompt', 'a', '-m'], true)).toMatchObject({
      argv: ['--output-format', 'stream-json', '--prompt', 'a', '-m'],
    });
    expect(readStartLine(['-p'], false)).toMatchObject({ kind: 'print', argv: [], prompted: false });
  });

  it('-c continues and -r <name> resumes: --continue and --session for send, --resume for chat', () => {
    expect(readStartLine(['-p', '-c', 'go', 'on'], true)).toMatchObject({
      argv: ['--continue', '--prompt', 'go', 'on'],
      session: { kind: 'continue' },
    });
    expect(readStartLine(['-r', 'work', '-p', 'go'], true)).toMatchObject({
      kind: 'print',
      argv: ['--session', 'work', '--prompt', 'go'],
      session: { kind: 'resume', name: 'work' },
    });
    expect(readStartLine(['-r', 'work'], true)).toMatchObject({
      kind: 'session',
      argv: ['--resume', 'work'],
      prompted: false,
    });
    expect(readStartLine(['--resume=work', 'and then?'], true)).toMatchObject({
      kind: 'session',
      argv: ['--resume', 'work', '--prompt', 'and then?'],
    });
  });

  it('-r with no name is the picker on a terminal, and a usage error headless', () => {
    expect(readStartLine(['-r'], true)).toMatchObject({
      kind: 'session',
      argv: ['--resume'],
      session: { kind: 'pick' },
    });
    expect(readStartLine(['-r', 'what changed?'], true)).toMatchObject({
      kind: 'session',
      argv: ['--resume', '--prompt', 'what changed?'],
    });
    expect(readStartLine(['-r', '-p', 'hi'], true)).toMatchObject({ kind: 'usage' });
    expect(readStartLine(['-c', '-r', 'x'], true)).toMatchObject({ kind: 'usage' });
  });

  it('cw "…" opens the session on a terminal and is cw -p off one', () => {
    expect(readStartLine(['explain this repo'], true)).toEqual({
      kind: 'session',
      argv: ['--prompt', 'explain this repo'],
      session: { kind: 'none' },
      prompted: true,
    });
    expect(readStartLine(['explain this repo'], false)).toMatchObject({
      kind: 'print',
      argv: ['--prompt', 'explain this repo'],
    });
    expect(readStartLine(['-c'], true)).toMatchObject({ kind: 'session', argv: ['--continue'] });
  });

  it('an unknown flag is named when it is a plain label, never when it may be a secret', () => {
    expect(readStartLine(['-x'], true)).toEqual({
      kind: 'usage',
      message: 'Unknown flag `-x`: cw --help lists the flags.',
    });
    const secret = readStartLine(['--sk-live-0000000000000000abcd', 'hi'], true);
    expect(secret).toMatchObject({ kind: 'usage' });
    expect(JSON.stringify(secret)).not.toContain('sk-live');
    expect(readStartLine(['-p', '--max-steps'], true)).toEqual({
      kind: 'usage',
      message: '`--max-steps` needs a value.',
    });
  });
});

describe('isPromptWord', () => {
  it.each([
    ['say hi', true],
    ['why?', true],
    ['send', false],
    ['sned', false],
    ['sk-live-0000', false],
    ['-p', false],
    ['', false],
  ])('%j → %s', (word, expected) => {
    expect(isPromptWord(word)).toBe(expected);
  });
});

describe('takeBareResume', () => {
  it('takes out a -r with no name, and leaves one with a name or in the prompt', () => {
    expect(takeBareResume(['-r'])).toEqual({ argv: [], pick: true });
    expect(takeBareResume(['-m', 'x', '--resume', '--prompt', 'hi'])).toEqual({
      argv: ['-m', 'x', '--prompt', 'hi'],
      pick: true,
    });
    expect(takeBareResume(['-r', 'work'])).toEqual({ argv: ['-r', 'work'], pick: false });
    expect(takeBareResume(['--prompt', 'what does -r do'])).toEqual({
      argv: ['--prompt', 'what does -r do'],
      pick: false,
    });
    expect(takeBareResume(['--prompt', 'x', '-r'])).toEqual({ argv: ['--prompt', 'x', '-r'], pick: false });
  });
});
