import { fileURLToPath } from 'node:url';
import { Config } from '@oclif/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine, sendLoopValues } from './command-line.js';
import PreviewRequest from '../commands/preview-request.js';
import Send from '../commands/send.js';
import { fastPreviewArgs } from './fast-preview-args.js';
import { fastSendArgs } from './fast-send-args.js';
import { previewOutputOf } from './preview-output.js';
import { UsageError } from './usage-error.js';
import { PREVIEW_REQUEST_USAGE, SEND_USAGE } from './usage-lines.js';

// The commands parse with oclif, whose flags are made from the flag table, plus the terminal
// --prompt and the preview's mode words; the fast path reads the same table with its own reader.
// Wherever the fast reader reads a line (it leaves the rest to oclif), both must agree: same result,
// or both a usage error. flags/command-grammar.test.ts holds the command path to the grammar.

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

/** The preview line as the fast reader reads it, or undefined when it leaves the line to oclif. */
function viaFast(argv: string[]): (() => unknown) | undefined {
  const read = fastPreviewArgs(argv);
  if (read === undefined) return undefined;
  return () => {
    const line = read.parse();
    return {
      output: previewOutputOf(line.order, line.prompt !== undefined, PREVIEW_REQUEST_USAGE),
      entrypoint: line.blocking ? 'blocking' : 'streaming',
      prompt: line.prompt,
    };
  };
}

describe('the command path agrees with the fast reader', () => {
  it.each(PREVIEW_CORPUS.map((argv) => [argv.join(' '), argv]))('preview-request %j', async (_name, argv) => {
    const fast = viaFast(argv);
    if (fast !== undefined) expect(await outcome(() => viaCommand(argv))).toEqual(await outcome(fast));
  });

  it('the fast reader reads the plain lines of the corpus', () => {
    for (const argv of [[], ['json'], ['--json'], ['manifest', 'json'], ['--blocking', '--prompt', 'hi', '--blocking']])
      expect(viaFast(argv), argv.join(' ')).toBeDefined();
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
    const read = fastSendArgs(argv);
    if (read === undefined) return;
    const expected = await outcome(async () => {
      const line = read.parse();
      sendLoopValues(line.flags as Record<string, string>, SEND_USAGE);
      return { json: line.flags.json === true, prompt: line.prompt };
    });
    const actual = await outcome(viaSend);
    // Value checks (--max-retries, --approval) run after oclif, in the command: a usage error either way.
    if ('usage' in (expected as object) && 'ok' in (actual as object)) {
      const line = await parseCommandLine(new Send(argv, config), Send, argv, SEND_USAGE);
      expect(() => sendLoopValues(line.flags as Record<string, string>, SEND_USAGE)).toThrow(UsageError);
    } else expect(actual).toEqual(expected);
  });
});
