import { fileURLToPath } from 'node:url';
import { Config } from '@oclif/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from './command-line.js';
import PreviewRequest from '../commands/preview-request.js';
import Send from '../commands/send.js';
import { sendLoopValues } from './send-loop-values.js';
import { parseDiffArgs } from './diff-args.js';
import type { Posture } from './flag-values.js';
import { previewOutputOf, type PreviewOutput } from './preview-output.js';
import { UsageError } from './usage-error.js';
import { PREVIEW_DIFF_USAGE, PREVIEW_REQUEST_USAGE, SEND_USAGE, promptRequired } from './usage-lines.js';

// The command grammar of `cw preview-request` and `cw send`, held to the commands' own parsing: oclif
// with the flags made from the flag table (flag-table.ts), the terminal `--prompt` (prompt-words.ts)
// and the preview's mode words (preview-output.ts).

let config: Config;
beforeAll(async () => {
  config = await Config.load(fileURLToPath(new URL('../..', import.meta.url)));
});

interface PreviewArgs {
  output: PreviewOutput;
  entrypoint: 'streaming' | 'blocking';
  prompt: string | undefined;
}

interface SendArgs {
  json: boolean;
  entrypoint: 'streaming' | 'blocking';
  maxRetries: number | undefined;
  maxSteps: number | undefined;
  approval: Posture | undefined;
  noTools: boolean;
  prompt: string | undefined;
}

/** `cw preview-request <argv>` as the command reads it. */
async function parsePreviewRequestArgs(argv: readonly string[]): Promise<PreviewArgs> {
  const line = await parseCommandLine(
    new PreviewRequest([...argv], config),
    PreviewRequest,
    argv,
    PREVIEW_REQUEST_USAGE,
  );
  return {
    output: previewOutputOf(line.order, line.prompt !== undefined, PREVIEW_REQUEST_USAGE),
    entrypoint: line.flags['blocking'] === true ? 'blocking' : 'streaming',
    prompt: line.prompt,
  };
}

/** `cw send <argv>` as the command reads it, its loop values checked. */
async function parseSendArgs(argv: readonly string[]): Promise<SendArgs> {
  const line = await parseCommandLine<Record<string, unknown>>(new Send([...argv], config), Send, argv, SEND_USAGE);
  const values = sendLoopValues(line.flags as Record<string, string>, SEND_USAGE);
  return {
    json: line.flags['json'] === true,
    entrypoint: line.flags['blocking'] === true ? 'blocking' : 'streaming',
    maxRetries: values.maxRetries,
    maxSteps: values.maxSteps,
    approval: values.approval,
    noTools: line.flags['no-tool-runs'] === true || line.flags['no-tools'] === true,
    prompt: line.prompt,
  };
}

// Each case name starts with a stable ID (G-xx) so a failing case is easy to find and refer to.

async function usageError(run: () => unknown): Promise<UsageError> {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(UsageError);
  const error = caught as UsageError;
  expect(error.exitCode).toBe(2);
  return error;
}

const TABLE: PreviewArgs = { output: 'table', entrypoint: 'streaming', prompt: undefined };
const JSON_OUT: PreviewArgs = { ...TABLE, output: 'json' };
const BASE: PreviewArgs = { ...TABLE, output: 'base-prompt' };
const withPrompt = (prompt: string, over: Partial<PreviewArgs> = {}): PreviewArgs => ({ ...TABLE, ...over, prompt });

describe('parsePreviewRequestArgs: accepted', () => {
  const cases: [string, string[], PreviewArgs][] = [
    ['G-01 empty', [], TABLE],
    ['G-02 manifest', ['manifest'], TABLE],
    ['--manifest', ['--manifest'], TABLE],
    ['G-03 json', ['json'], JSON_OUT],
    ['G-04 --json', ['--json'], JSON_OUT],
    ['G-05 prompt is a no-op alias', ['prompt'], TABLE],
    ['G-06 base-prompt', ['base-prompt'], BASE],
    ['G-07 --base-prompt', ['--base-prompt'], BASE],
    ['G-11 --prompt takes the rest', ['--prompt', 'refactor', 'the', 'parser'], withPrompt('refactor the parser')],
    [
      'G-12 json then --prompt',
      ['json', '--prompt', 'fix', 'the', 'failing', 'test'],
      withPrompt('fix the failing test', { output: 'json' }),
    ],
    ['G-13 interior double spaces kept', ['--prompt', 'keep  two  spaces'], withPrompt('keep  two  spaces')],
    ['G-14 newline kept', ['--prompt', 'line one\nline two'], withPrompt('line one\nline two')],
    ['G-15 tabs kept', ['--prompt', 'tabs\tand\tmore'], withPrompt('tabs\tand\tmore')],
    ['G-16 trailing space kept', ['--prompt', 'trailing space '], withPrompt('trailing space ')],
    ['G-16 trailing space kept (single word)', ['--prompt', 'trailing '], withPrompt('trailing ')],
    ['G-17 leading spaces kept', ['--prompt', '   padded start'], withPrompt('   padded start')],
    ['G-18 trailing json is prompt text', ['--prompt', 'fix', 'it', 'json'], withPrompt('fix it json')],
    ['G-19 json then quoted prompt', ['json', '--prompt', 'fix it'], withPrompt('fix it', { output: 'json' })],
    ['G-28 json then --manifest: last wins', ['json', '--manifest'], TABLE],
    ['json manifest: last wins', ['json', 'manifest'], TABLE],
    ['manifest json: last wins', ['manifest', 'json'], JSON_OUT],
    [
      'G-29 leading/trailing whitespace and newline kept',
      ['--prompt', '  lead\ntrail  '],
      withPrompt('  lead\ntrail  '),
    ],
    ['CRLF and mixed whitespace kept', ['--prompt', '\t a\r\n\tb \u00a0'], withPrompt('\t a\r\n\tb \u00a0')],
    ['words are joined with single spaces', ['--prompt', 'a', ' b', 'c '], withPrompt('a  b c ')],
    [
      'flags after --prompt are prompt text',
      ['--prompt', 'manifest', '--nope', 'base-prompt', '--prompt'],
      withPrompt('manifest --nope base-prompt --prompt'),
    ],
    ['-- after --prompt is prompt text', ['--prompt', '--', '--help'], withPrompt('-- --help')],
    [
      'a -- fence right before --prompt is syntax',
      ['--', '--prompt', 'how', 'do', 'I', 'use', '--help'],
      withPrompt('how do I use --help'),
    ],
    ['a -- fence after flags', ['json', '--', '--prompt=hi'], { ...withPrompt('hi'), output: 'json' }],
    ['non-ASCII prompt kept', ['--prompt', 'résumé 秘密 🐳'], withPrompt('résumé 秘密 🐳')],
    [
      '--blocking before --prompt sets the entry point',
      ['--blocking', '--prompt', 'hi'],
      withPrompt('hi', { entrypoint: 'blocking' }),
    ],
    ['--blocking after --prompt is prompt text', ['--prompt', 'hi', '--blocking'], withPrompt('hi --blocking')],
    ['--blocking alone', ['--blocking'], { ...TABLE, entrypoint: 'blocking' }],
    ['--blocking with json', ['json', '--blocking'], { ...JSON_OUT, entrypoint: 'blocking' }],
    ['--blocking repeated', ['--blocking', '--blocking'], { ...TABLE, entrypoint: 'blocking' }],
    ['--blocking with base-prompt', ['base-prompt', '--blocking'], { ...BASE, entrypoint: 'blocking' }],
    ['json manifest base-prompt: json was cleared', ['json', 'manifest', 'base-prompt'], BASE],
    ['base-prompt manifest stays base-prompt', ['base-prompt', 'manifest'], BASE],
    ['prompt alias before --prompt', ['prompt', '--prompt', 'hi'], withPrompt('hi')],
    ['--prompt=text', ['--prompt=fix', 'it'], withPrompt('fix it')],
    ['--prompt=text keeps the text byte for byte', ['--prompt=  a\tb\n '], withPrompt('  a\tb\n ')],
    ['--prompt=text splits at the first = only', ['--prompt=x=y'], withPrompt('x=y')],
    ['--prompt= then a word: the empty first word is joined', ['--prompt=', 'foo'], withPrompt(' foo')],
    ['json then --prompt=text', ['json', '--prompt=fix it'], withPrompt('fix it', { output: 'json' })],
  ];

  it.each(cases)('%s', async (_name, argv, expected) => {
    expect(await parsePreviewRequestArgs(argv)).toEqual(expected);
  });

  it('does not modify its input', async () => {
    const argv = Object.freeze(['json', '--prompt', 'a', 'b']);
    expect(await parsePreviewRequestArgs(argv)).toEqual(withPrompt('a b', { output: 'json' }));
    expect(argv).toEqual(['json', '--prompt', 'a', 'b']);
  });
});

describe('parsePreviewRequestArgs: rejected', () => {
  async function expectPreviewError(argv: string[], ...fragments: string[]): Promise<UsageError> {
    const error = await usageError(() => parsePreviewRequestArgs(argv));
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(PREVIEW_REQUEST_USAGE);
    for (const fragment of fragments) expect(error.message).toContain(fragment);
    return error;
  }

  it.each([
    ['G-08 json base-prompt', ['json', 'base-prompt']],
    ['G-09 base-prompt json', ['base-prompt', 'json']],
    ['--json --base-prompt', ['--json', '--base-prompt']],
    ['--base-prompt --json', ['--base-prompt', '--json']],
  ])('%s: base-prompt excludes JSON', async (_name, argv) => {
    await expectPreviewError(argv, '`base-prompt` cannot be combined with JSON');
  });

  it.each([
    ['G-10 base-prompt --prompt hi', ['base-prompt', '--prompt', 'hi']],
    ['--base-prompt --prompt=hi', ['--base-prompt', '--prompt=hi']],
  ])('%s: base-prompt excludes --prompt', async (_name, argv) => {
    await expectPreviewError(argv, '`base-prompt` cannot be combined with `--prompt`');
  });

  it.each([
    ['G-20', ['nope']],
    ['G-21', ['json', 'nope']],
    ['empty word', ['']],
    ['whitespace-padded flag is not trimmed', ['json ']],
    ['flags are case-sensitive', ['JSON']],
    ['two flags in one word are not re-split', ['json manifest']],
    ['-- not followed by --prompt', ['--', 'json', '--prompt', 'hi']],
    ['a trailing --', ['json', '--']],
    ['prototype key', ['__proto__']],
    ['prototype key', ['constructor']],
  ])('%s: %j is an unknown argument', async (_name, argv) => {
    await expectPreviewError(argv, 'Unknown argument', '--prompt');
  });

  // A word that starts with `-` is named: the flag parser knows it was meant as a flag.
  it.each([
    ['G-22', ['--nope', '--prompt', 'hi'], '--nope'],
    ['G-23', ['manifest', '-x'], '-x'],
    ['--streaming is not a flag', ['--streaming'], '--streaming'],
    ['--prompt prefix without =', ['--promptx', 'hi'], '--promptx'],
    ['-h is not taken over by the parser', ['-h'], '-h'],
  ])('%s: %j is an unknown flag, named', async (_name, argv, flag) => {
    await expectPreviewError(argv, `Unknown flag \`${flag}\``, '--prompt');
  });

  it('G-24 never echoes a huge secret-shaped unknown token', async () => {
    const token = 'sk-live-' + 'a'.repeat(10000) + '-/Users/alice/private/config\nsecond-line';
    for (const argv of [[token], ['json', token], [token, '--prompt', 'hi']]) {
      const error = await expectPreviewError(argv, 'Unknown argument', '--prompt');
      expect(Buffer.byteLength(error.message, 'utf8')).toBeLessThan(256);
      for (const leaked of ['sk-live', '/Users/alice', 'second-line', 'aaaaaaaa']) {
        expect(error.message).not.toContain(leaked);
        expect(String(error.stack)).not.toContain(leaked);
      }
    }
  });

  it.each([
    ['G-25 bare --prompt', ['--prompt']],
    ['G-26 whitespace-only prompt', ['--prompt', '   ']],
    ['G-27 json --prompt', ['json', '--prompt']],
    ['base-prompt --prompt (bare)', ['base-prompt', '--prompt']],
    ['empty prompt word', ['--prompt', '']],
    ['several whitespace words', ['--prompt', ' ', '\t', '\n']],
    ['Unicode whitespace only', ['--prompt', '\u00a0\u2003\u3000\u0085']],
    ['--prompt= alone', ['--prompt=']],
    ['--prompt= with whitespace', ['--prompt=  ', ' ']],
  ])('%s: needs text', async (_name, argv) => {
    await expectPreviewError(argv, 'needs text', 'preview-request');
  });
});

describe('parseSendArgs', () => {
  const cases: [string, string[], SendArgs][] = [
    [
      'prompt only',
      ['--prompt', 'hi'],
      {
        json: false,
        entrypoint: 'streaming',
        maxRetries: undefined,
        maxSteps: undefined,
        approval: undefined,
        noTools: false,
        prompt: 'hi',
      },
    ],
    [
      '--json --blocking --prompt x',
      ['--json', '--blocking', '--prompt', 'x'],
      {
        json: true,
        entrypoint: 'blocking',
        maxRetries: undefined,
        maxSteps: undefined,
        approval: undefined,
        noTools: false,
        prompt: 'x',
      },
    ],
    [
      '--blocking --json --prompt x',
      ['--blocking', '--json', '--prompt', 'x'],
      {
        json: true,
        entrypoint: 'blocking',
        maxRetries: undefined,
        maxSteps: undefined,
        approval: undefined,
        noTools: false,
        prompt: 'x',
      },
    ],
    [
      'flags after --prompt are prompt text',
      ['--prompt', 'a', '--json', '--blocking'],
      {
        json: false,
        entrypoint: 'streaming',
        maxRetries: undefined,
        maxSteps: undefined,
        approval: undefined,
        noTools: false,
        prompt: 'a --json --blocking',
      },
    ],
    [
      'prompt kept byte for byte',
      ['--prompt', '  lead\ntrail  '],
      {
        json: false,
        entrypoint: 'streaming',
        maxRetries: undefined,
        maxSteps: undefined,
        approval: undefined,
        noTools: false,
        prompt: '  lead\ntrail  ',
      },
    ],
    [
      '--prompt=text',
      ['--json', '--prompt=fix', 'it'],
      {
        json: true,
        entrypoint: 'streaming',
        maxRetries: undefined,
        maxSteps: undefined,
        approval: undefined,
        noTools: false,
        prompt: 'fix it',
      },
    ],
    [
      '--max-retries 0',
      ['--max-retries', '0', '--prompt', 'x'],
      {
        json: false,
        entrypoint: 'streaming',
        maxRetries: 0,
        maxSteps: undefined,
        approval: undefined,
        noTools: false,
        prompt: 'x',
      },
    ],
    [
      '--max-retries 10',
      ['--max-retries', '10', '--json', '--prompt', 'x'],
      {
        json: true,
        entrypoint: 'streaming',
        maxRetries: 10,
        maxSteps: undefined,
        approval: undefined,
        noTools: false,
        prompt: 'x',
      },
    ],
    [
      '--max-retries after --prompt is prompt text',
      ['--prompt', 'x', '--max-retries', '3'],
      {
        json: false,
        entrypoint: 'streaming',
        maxRetries: undefined,
        maxSteps: undefined,
        approval: undefined,
        noTools: false,
        prompt: 'x --max-retries 3',
      },
    ],
  ];

  it.each([
    ['11', ['--max-retries', '11', '--prompt', 'x']],
    ['-1', ['--max-retries', '-1', '--prompt', 'x']],
    ['two', ['--max-retries', 'two', '--prompt', 'x']],
    ['missing', ['--max-retries']],
    ['swallowing --prompt', ['--max-retries', '--prompt', 'x']],
  ])('--max-retries %s is a usage error naming the flag', async (_name, argv) => {
    await expect(parseSendArgs(argv)).rejects.toThrow(
      /`--max-retries` (takes a whole number from 0 to 10|needs a value)/,
    );
  });
  it('preview-request does not take --max-retries', async () => {
    await expect(parsePreviewRequestArgs(['--max-retries', '1'])).rejects.toThrow(/Unknown flag `--max-retries`/);
  });

  it.each(cases)('%s', async (_name, argv, expected) => {
    expect(await parseSendArgs(argv)).toEqual(expected);
  });

  async function expectSendError(argv: string[], ...fragments: string[]): Promise<UsageError> {
    const error = await usageError(() => parseSendArgs(argv));
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(SEND_USAGE);
    for (const fragment of fragments) expect(error.message).toContain(fragment);
    return error;
  }

  it.each([
    ['empty', []],
    ['flags only', ['--json', '--blocking']],
  ])(
    'without --prompt (%s) the prompt is left undefined: the command decides from the session',
    async (_name, argv) => {
      expect((await parseSendArgs(argv)).prompt).toBeUndefined();
    },
  );

  it('promptRequired is the usage error cw send gives when the session is not waiting to continue', async () => {
    const error = promptRequired();
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('`--prompt <text>` is required');
    expect(error.exitCode).toBe(2);
  });

  it.each([
    ['bare --prompt', ['--prompt']],
    ['whitespace prompt', ['--json', '--prompt', '  ']],
  ])('%s: needs text', async (_name, argv) => {
    await expectSendError(argv, 'needs text');
  });

  it.each([
    ['manifest', ['manifest', '--prompt', 'x']],
    ['base-prompt', ['base-prompt']],
    ['prompt', ['prompt', '--prompt', 'x']],
    ['bare json', ['json', '--prompt', 'x']],
    ['nope', ['nope']],
  ])('%s is unknown for send', async (_name, argv) => {
    await expectSendError(argv, 'Unknown argument', '--prompt');
  });

  it.each([
    ['--manifest', ['--manifest', '--prompt', 'x']],
    ['--base-prompt', ['--base-prompt', '--prompt', 'x']],
    ['--streaming', ['--streaming', '--prompt', 'x']],
  ])('%s is an unknown flag for send, named', async (name, argv) => {
    await expectSendError(argv, `Unknown flag \`${name}\``, '--prompt');
  });

  it('never echoes a secret-shaped unknown token', async () => {
    const token = 'sk-live-' + 'a'.repeat(10000) + '-/Users/alice/private/config\nsecond-line';
    const error = await expectSendError(['--json', token, '--prompt', 'x'], 'Unknown argument');
    expect(Buffer.byteLength(error.message, 'utf8')).toBeLessThan(256);
    for (const leaked of ['sk-live', '/Users/alice', 'second-line']) expect(error.message).not.toContain(leaked);
  });
});

describe('parseDiffArgs (the words after `diff`)', () => {
  it.each([
    ['two files', ['a.json', 'b.json'], { json: false, files: ['a.json', 'b.json'] }],
    ['--json first', ['--json', 'a.json', 'b.json'], { json: true, files: ['a.json', 'b.json'] }],
    ['--json between', ['a.json', '--json', 'b.json'], { json: true, files: ['a.json', 'b.json'] }],
    ['--json last', ['a.json', 'b.json', '--json'], { json: true, files: ['a.json', 'b.json'] }],
    ['a file named json is a file', ['json', 'b.json'], { json: false, files: ['json', 'b.json'] }],
    ['the same file twice', ['a.json', 'a.json'], { json: false, files: ['a.json', 'a.json'] }],
    [
      'paths with spaces stay whole',
      ['my runs/a.json', './-b.json'],
      { json: false, files: ['my runs/a.json', './-b.json'] },
    ],
  ])('%s', async (_name, argv, expected) => {
    expect(parseDiffArgs(argv)).toEqual(expected);
  });

  it.each([
    ['no files', [], 'needs exactly two'],
    ['one file', ['a.json'], 'needs exactly two'],
    ['three files', ['a', 'b', 'c'], 'needs exactly two'],
    ['only --json', ['--json'], 'needs exactly two'],
    ['an empty word', ['a.json', ''], 'needs exactly two'],
    ['an unknown flag', ['a.json', '--nope', 'b.json'], 'Unknown flag'],
    ['a dash word is never a file', ['-', 'b.json'], 'Unknown flag'],
  ])('rejects %s with a usage error (exit 2)', (_name, argv, message) => {
    let caught: unknown;
    try {
      parseDiffArgs(argv);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    const error = caught as UsageError;
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(message);
    expect(error.message.split('\n')[1]).toBe(PREVIEW_DIFF_USAGE);
    expect(error.message).not.toContain('--nope');
  });
});
