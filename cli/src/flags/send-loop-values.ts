import { approvalValue, type WholeValues, wholeValues } from './flag-values.js';

// The send loop's values checked apart from any flag parser, so the oclif command and the oclif-free
// send entry (fast-send.ts) check them with the same rules and messages. The numbers and their
// ranges are the flag table's (flag-table.ts).

/** The send loop's flag values, checked with the table's rules (one message per flag, naming it). */
export function sendLoopValues(
  flags: Readonly<Record<string, unknown>>,
  usage: string,
): WholeValues & { approval?: ReturnType<typeof approvalValue> } {
  const approval = flags['approval'];
  return {
    ...wholeValues(flags, 'send', usage),
    ...(typeof approval === 'string' ? { approval: approvalValue(approval, usage) } : {}),
  };
}
