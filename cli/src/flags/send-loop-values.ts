import { approvalValue, maxRetriesValue, maxStepsValue } from './flag-values.js';

// The send loop's values checked apart from any flag parser, so the oclif command and the oclif-free
// send entry (fast-send.ts) check them with the same rules and messages.

/** The send loop's flag values, checked with the grammar's rules (one message per flag, naming it). */
export function sendLoopValues(
  flags: Partial<Record<'max-retries' | 'max-steps' | 'approval', string>>,
  usage: string,
): { maxRetries?: number; maxSteps?: number; approval?: ReturnType<typeof approvalValue> } {
  return {
    ...(flags['max-retries'] === undefined ? {} : { maxRetries: maxRetriesValue(flags['max-retries'], usage) }),
    ...(flags['max-steps'] === undefined ? {} : { maxSteps: maxStepsValue(flags['max-steps'], usage) }),
    ...(flags.approval === undefined ? {} : { approval: approvalValue(flags.approval, usage) }),
  };
}
