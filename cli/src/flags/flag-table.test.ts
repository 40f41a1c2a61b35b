import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Command, Config, Help, Parser } from '@oclif/core';
import { beforeAll, describe, expect, it } from 'vitest';
import Send from '../commands/send.js';
import { trailingFlagWarning } from './prompt-flag-warning.js';
import { FLAG_TABLE, type FlagEntry, flagsOf } from './flag-table.js';
import { oclifFlagsOf } from './oclif-flags.js';
import { readFlags } from './read-flags.js';
import { usageFlags } from './usage-lines.js';

// The flag table is the one declaration of the turn flags: a flag added to it reaches oclif's help
// and parser, the fast path's reader, the trailing-flag warning and the usage line, with no other
// file changed.

const EXTRA: FlagEntry = {
  name: 'frobnicate',
  value: { help: '<level>', options: ['gently', 'hard'] },
  summary: 'Frobnicate the turn (a flag only this test declares).',
  commands: ['send'],
};
const WITH_EXTRA: readonly FlagEntry[] = [...FLAG_TABLE, EXTRA];

let config: Config;
beforeAll(async () => {
  config = await Config.load(fileURLToPath(new URL('../..', import.meta.url)));
});

/** `cw send --help` as oclif writes it for the send command with the flags of `table`. */
async function sendHelp(table: readonly FlagEntry[]): Promise<string> {
  // oclif turns a command class into what its help reads with this function; it is not exported.
  const oclifLib = dirname(createRequire(import.meta.url).resolve('@oclif/core'));
  const { cacheCommand } = (await import(join(oclifLib, 'util', 'cache-command.js'))) as {
    cacheCommand: (command: Command.Class) => Promise<Command.Cached>;
  };
  class SendWithTable extends Send {
    static override id = 'send';
    static override flags = oclifFlagsOf('send', table);
  }
  const cached = await cacheCommand(SendWithTable as unknown as Command.Class);
  class Rendered extends Help {
    text(command: Command.Loadable): string {
      return this.formatCommand(command);
    }
  }
  return new Rendered(config, { stripAnsi: true }).text(cached as Command.Loadable);
}

describe('a flag added to the table', () => {
  it('appears in oclif help, which the real table does not have it in', async () => {
    expect(await sendHelp(WITH_EXTRA)).toContain('--frobnicate=<option>');
    expect(await sendHelp(WITH_EXTRA)).toContain('Frobnicate the turn');
    expect(await sendHelp(FLAG_TABLE)).not.toContain('frobnicate');
  });

  it('is parsed by oclif with its choices', async () => {
    const parsed = await Parser.parse(['--frobnicate', 'hard'], { flags: oclifFlagsOf('send', WITH_EXTRA) });
    expect(parsed.flags['frobnicate']).toBe('hard');
    await expect(Parser.parse(['--frobnicate', 'soft'], { flags: oclifFlagsOf('send', WITH_EXTRA) })).rejects.toThrow();
  });

  it('is read by the fast path, which leaves a value outside its choices to oclif', () => {
    expect(readFlags(['--frobnicate', 'hard', '--json'], 'send', { table: WITH_EXTRA })?.values).toEqual({
      frobnicate: 'hard',
      json: true,
    });
    expect(readFlags(['--frobnicate', 'soft'], 'send', { table: WITH_EXTRA })).toBeUndefined();
    expect(readFlags(['--frobnicate', 'hard'], 'send')).toBeUndefined();
    // Only the commands the entry names take it.
    expect(readFlags(['--frobnicate', 'hard'], 'preview-request', { table: WITH_EXTRA })).toBeUndefined();
  });

  it('is named by the trailing-flag warning', () => {
    const argv = ['--prompt', 'fix', 'it', '--frobnicate', 'hard'];
    expect(trailingFlagWarning(argv, WITH_EXTRA)).toContain('--frobnicate at the end of the prompt');
    expect(trailingFlagWarning(argv)).toBeNull();
  });

  it('is listed in the usage line', () => {
    expect(usageFlags('send', WITH_EXTRA)).toContain('[--frobnicate gently|hard]');
    expect(usageFlags('send')).not.toContain('frobnicate');
  });
});

describe('the table', () => {
  const commands = ['send', 'preview-request', 'chat', 'start'] as const;

  it('gives each command one entry per name and one flag per short alias', () => {
    for (const command of commands) {
      const entries = flagsOf(command);
      const names = entries.map((entry) => entry.name);
      const chars = entries.flatMap((entry) => (entry.char === undefined ? [] : [entry.char]));
      expect(new Set(names).size, command).toBe(names.length);
      expect(new Set(chars).size, command).toBe(chars.length);
    }
  });

  it('keeps -r for --route in send and preview-request, and for --resume in cw and cw chat', () => {
    const charOf = (command: (typeof commands)[number], name: string) =>
      flagsOf(command).find((entry) => entry.name === name)?.char;
    expect(charOf('send', 'route')).toBe('r');
    expect(charOf('preview-request', 'route')).toBe('r');
    expect(charOf('chat', 'route')).toBeUndefined();
    expect(charOf('chat', 'resume')).toBe('r');
    expect(charOf('start', 'resume')).toBe('r');
    expect(charOf('start', 'continue')).toBe('c');
    expect(charOf('send', 'continue')).toBe('c');
  });

  it('makes the oclif flags of every command', () => {
    for (const command of commands)
      expect(Object.keys(oclifFlagsOf(command)).sort(), command).toEqual(
        [...new Set(flagsOf(command).map((entry) => entry.name))].sort(),
      );
  });

  it('spells --max-steps in one place: the send command takes it from the table', () => {
    expect(Object.keys(Send.flags)).toContain('max-steps');
    const summaries = (flags: object) => Object.entries(flags).map(([name, flag]) => [name, flag.summary, flag.char]);
    expect(summaries(Send.flags ?? {})).toEqual(summaries(oclifFlagsOf('send')));
  });
});
