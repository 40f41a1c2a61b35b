import { approvalValue, UsageError } from '../grammar.js';
import type { ApprovalPosture } from '@cw/core';
import {
  REASONING,
  TURN_FLAG_WORDS,
  type TurnChoices,
  type TurnFlagName,
  type TurnFlagValues,
  turnChoicesOf,
} from '../turn-choices.js';

/** Usage line of `cw chat`. */
export const CHAT_USAGE =
  'Usage: cw chat [-r <route>] [-m <model>|<route/model>] [--reasoning <level>] [-s <name>|-n|-c] [--approval <posture>]  (see cw chat --help)';

/** What the chat's command line chose. */
export interface ChatLine {
  readonly choices: TurnChoices;
  readonly approval: ApprovalPosture | undefined;
}

type FlagName = TurnFlagName | 'approval';

// A Map, not an object literal, so words like `__proto__` cannot match.
const FLAGS: ReadonlyMap<string, { readonly name: FlagName; readonly takesValue: boolean }> = new Map<
  string,
  { readonly name: FlagName; readonly takesValue: boolean }
>([...TURN_FLAG_WORDS, ['--approval', { name: 'approval', takesValue: true }]]);

/**
 * The words after `cw chat` read as the command's flag parser reads them, for a line this reader is
 * sure of (each flag spelled out whole, given once, a plain value after it); undefined for any other
 * line, which oclif then reads. `parse` runs the command's own checks, which may throw UsageErrors.
 */
export function fastChatArgs(argv: readonly string[]): { readonly parse: () => ChatLine } | undefined {
  const values: Partial<Record<FlagName, string | true>> = {};
  for (let at = 0; at < argv.length; at++) {
    const flag = FLAGS.get(argv[at] ?? '');
    if (flag === undefined || values[flag.name] !== undefined) return undefined;
    if (!flag.takesValue) {
      values[flag.name] = true;
      continue;
    }
    const value = argv[at + 1];
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    if (flag.name === 'reasoning' && !(REASONING as readonly string[]).includes(value)) return undefined;
    values[flag.name] = value;
    at++;
  }
  return {
    parse: () => ({
      choices: turnChoicesOf(values as TurnFlagValues, CHAT_USAGE),
      approval: typeof values.approval === 'string' ? approvalValue(values.approval, CHAT_USAGE) : undefined,
    }),
  };
}

/** cw chat reads the prompt in the session; a terminal is what it needs. */
export function requireTerminal(): void {
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true)
    throw new UsageError('cw chat needs a terminal; from a script, use cw send --prompt <text>.', CHAT_USAGE);
}
