import { FLAG_TABLE, type FlagCommand, POSTURES } from './flag-table.js';
import { UsageError } from './usage-error.js';

// The values oclif takes as plain strings, checked with messages that name the flag and never the
// value (it may be a secret typed in the wrong place). The oclif commands and the fast path both
// call these (send-loop-values.ts), so both fail with the same words.

/** An approval posture. */
export type Posture = (typeof POSTURES)[number];

/** The send loop's numbers the table declares a range for, by the loop option each sets. */
export type WholeValues = Partial<Record<'maxRetries' | 'maxSteps', number>>;

/**
 * Each flag of `command` the table gives a whole-number range, checked: `--name N` takes a whole
 * number from its min to its max, and a bad one throws a UsageError naming the flag.
 */
export function wholeValues(
  flags: Readonly<Record<string, unknown>>,
  command: FlagCommand,
  usage: string,
): WholeValues {
  const values: { -readonly [K in keyof WholeValues]: number } = {};
  for (const entry of FLAG_TABLE) {
    const whole = entry.value?.whole;
    const given = flags[entry.name];
    if (whole === undefined || given === undefined || !entry.commands.includes(command)) continue;
    const text = typeof given === 'string' ? given : '';
    const number = Number(text);
    if (!/^\d+$/.test(text) || text.length > String(whole.max).length || number < whole.min || number > whole.max)
      throw new UsageError(`\`--${entry.name}\` takes a whole number from ${whole.min} to ${whole.max}.`, usage);
    values[whole.option] = number;
  }
  return values;
}

/** `--approval P`: one of the postures; throws a UsageError naming the flag. */
export function approvalValue(value: string | undefined, usage: string): Posture {
  const posture = POSTURES.find((known) => known === value);
  if (posture === undefined) throw new UsageError(`\`--approval\` takes one of ${POSTURES.join(', ')}.`, usage);
  return posture;
}
