import { Flags, type Interfaces } from '@oclif/core';
import { FLAG_TABLE, type FlagCommand, type FlagEntry, flagsOf } from './flag-table.js';

// oclif's flag objects, made from the flag table for one command: what help shows, the shell
// completes and oclif parses. Only the oclif commands import this file; the fast path reads the
// table itself (read-flags.ts) and never loads oclif.

/** oclif's flags of a command, from the table (or from `table`, for a test). */
export function oclifFlagsOf(command: FlagCommand, table: readonly FlagEntry[] = FLAG_TABLE): Interfaces.FlagInput {
  const flags: Interfaces.FlagInput = {};
  for (const entry of flagsOf(command, table)) flags[entry.name] = oclifFlag(entry);
  return flags;
}

function oclifFlag(entry: FlagEntry): Interfaces.FlagInput[string] {
  const common = {
    summary: entry.summary,
    ...(entry.char === undefined ? {} : { char: entry.char as Interfaces.AlphabetLowercase }),
    ...(entry.hidden ? { hidden: true } : {}),
  };
  if (entry.value === undefined) return Flags.boolean(common);
  if (entry.value.options !== undefined) return Flags.option({ ...common, options: entry.value.options })();
  const string = { ...common, helpValue: entry.value.help };
  return entry.multiple ? Flags.string({ ...string, multiple: true }) : Flags.string(string);
}
