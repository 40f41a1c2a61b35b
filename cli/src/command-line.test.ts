import { fileURLToPath } from 'node:url';
import { Config } from '@oclif/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from './command-line.js';
import PreviewRequest from './commands/preview-request.js';
import Send from './commands/send.js';
import {
  PREVIEW_REQUEST_USAGE,
  SEND_USAGE,
  UsageError,
  parsePreviewRequestArgs,
  parseSendArgs,
  previewOutputOf,
} from './grammar.js';

// The commands parse with oclif plus the grammar's terminal --prompt and mode words; the grammar's
// own parser (grammar.test.ts) is the reference. On the same words both must agree: same result, or
// both a usage error.

let config: Config;
beforeAll(async () => {
  config = await Config.load(fileURLToPath(new URL('..', import.meta.url)));
});

async function viaCommand(argv: string[]): Promise<unknown> {
  const line = await parseCommandLine(new PreviewRequest(argv, config), PreviewRequest, argv, PREVIEW_REQUEST_USAGE);
  return {
    output: previewOutputOf(line.order, line.prompt !== undefined, PREVIEW_REQUEST_USAGE),
    entrypoint: line.flags['blocking'] ? 'blocking' : 'streaming',
    prompt: line.prompt,
  };
}

async function outcome(run: () => unknown): Promise<unknown> {
  try {
    return { ok: await run() };
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return { usage: (error as UsageError).exitCode };
  }
}

const PREVIEW_CORPUS: string[][] = [
  [],
  ['json'],
  ['--json'],
  ['manifest', 'json'],
  ['json', '--manifest'],
  ['json', 'manifest', 'base-prompt'],
  ['base-prompt', '--blocking'],
  ['prompt', '--prompt', 'hi'],
  ['--blocking', '--prompt', 'hi', '--blocking'],
  ['json', '--prompt=fix', 'it'],
  ['--', '--prompt', 'how', 'do', 'I', 'use', '--help'],
  ['--prompt', '  lead\ntrail  '],
  ['--prompt', 'manifest', '--nope', 'base-prompt', '--prompt'],
  ['json', 'base-prompt'],
  ['base-prompt', '--prompt', 'hi'],
  ['nope'],
  ['--nope', '--prompt', 'hi'],
  ['-x'],
  ['-h'],
  ['json ', '--prompt', 'x'],
  ['--', 'json', '--prompt', 'hi'],
  ['json', '--'],
  ['--prompt'],
  ['--prompt', '   '],
  ['--prompt='],
  ['--max-retries', '1'],
];

describe('the command path agrees with the grammar', () => {
  it.each(PREVIEW_CORPUS.map((argv) => [argv.join(' '), argv]))('preview-request %j', async (_name, argv) => {
    expect(await outcome(() => viaCommand(argv))).toEqual(await outcome(() => parsePreviewRequestArgs(argv)));
  });

  it.each([
    [['--prompt', 'hi']],
    [['--json', '--blocking', '--prompt', 'x']],
    [['--max-retries', '11', '--prompt', 'x']],
    [['--approval', 'sometimes', '--prompt', 'x']],
    [['manifest', '--prompt', 'x']],
    [['--prompt', 'a', '--json']],
  ])('send %j', async (argv) => {
    const viaSend = async () => {
      const line = await parseCommandLine(new Send(argv, config), Send, argv, SEND_USAGE);
      return { json: line.flags['json'] === true, prompt: line.prompt };
    };
    const expected = await outcome(() => {
      const parsed = parseSendArgs(argv);
      return { json: parsed.json, prompt: parsed.prompt };
    });
    const actual = await outcome(viaSend);
    // Value checks (--max-retries, --approval) run after oclif, in the command: a usage error either way.
    if ('usage' in (expected as object) && 'ok' in (actual as object)) {
      const { sendLoopValues } = await import('./command-line.js');
      const line = await parseCommandLine(new Send(argv, config), Send, argv, SEND_USAGE);
      expect(() => sendLoopValues(line.flags as Record<string, string>, SEND_USAGE)).toThrow(UsageError);
    } else expect(actual).toEqual(expected);
  });
});
