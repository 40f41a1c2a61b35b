import { POSTURES } from './flag-table.js';
import { UsageError } from './usage-error.js';

// The values oclif takes as plain strings, checked with messages that name the flag and never the
// value (it may be a secret typed in the wrong place). The oclif commands and the fast path both
// call these (send-loop-values.ts), so both fail with the same words.

/** An approval posture. */
export type Posture = (typeof POSTURES)[number];

const MAX_RETRIES_LIMIT = 10;
const MAX_STEPS_LIMIT = 200;

/** `--max-retries N`: a whole number from 0 to 10; throws a UsageError naming the flag. */
export function maxRetriesValue(value: string | undefined, usage: string): number {
  if (value === undefined || !/^\d{1,2}$/.test(value) || Number(value) > MAX_RETRIES_LIMIT)
    throw new UsageError('`--max-retries` takes a whole number from 0 to 10.', usage);
  return Number(value);
}

/** `--max-steps N`: a whole number from 1 to 200; throws a UsageError naming the flag. */
export function maxStepsValue(value: string | undefined, usage: string): number {
  if (value === undefined || !/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MAX_STEPS_LIMIT)
    throw new UsageError('`--max-steps` takes a whole number from 1 to 200.', usage);
  return Number(value);
}

/** `--approval P`: one of the postures; throws a UsageError naming the flag. */
export function approvalValue(value: string | undefined, usage: string): Posture {
  const posture = POSTURES.find((known) => known === value);
  if (posture === undefined) throw new UsageError(`\`--approval\` takes one of ${POSTURES.join(', ')}.`, usage);
  return posture;
}
