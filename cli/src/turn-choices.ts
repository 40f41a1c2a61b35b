import { UsageError } from './grammar.js';

// The turn flags' values become a turn's choices here, with no oclif in sight: the command and the
// oclif-free preview entry (fast-preview.ts) both call turnChoicesOf, so the same flags choose the
// same route, model, reasoning and session, and fail with the same words.

/** The reasoning selections `--reasoning` takes (the core's list; kept here so help loads no core). */
export const REASONING = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'auto'] as const;
/** A reasoning selection. */
export type Reasoning = (typeof REASONING)[number];

/** What the command line chose for a turn, ready for loadRuntime. */
export interface TurnChoices {
  readonly route?: string;
  readonly model?: string;
  readonly reasoning?: Reasoning;
  readonly session?: { kind: 'named'; name: string } | { kind: 'new' } | { kind: 'continue' };
}

/** The turn flags' parsed values, as a flag parser hands them over. */
/** A turn flag's name, as TurnFlagValues keys it. */
export type TurnFlagName = 'route' | 'model' | 'reasoning' | 'session' | 'new' | 'continue';

/**
 * The turn flags as the oclif-free readers of preview and send take them (fast-preview-args.ts,
 * fast-send-args.ts): each word spelled out whole, the flag it sets, and whether a value follows.
 */
export const TURN_FLAG_WORDS: readonly (readonly [
  string,
  { readonly name: TurnFlagName; readonly takesValue: boolean },
])[] = [
  ['-n', { name: 'new', takesValue: false }],
  ['--new', { name: 'new', takesValue: false }],
  ['-c', { name: 'continue', takesValue: false }],
  ['--continue', { name: 'continue', takesValue: false }],
  ['-r', { name: 'route', takesValue: true }],
  ['--route', { name: 'route', takesValue: true }],
  ['-m', { name: 'model', takesValue: true }],
  ['--model', { name: 'model', takesValue: true }],
  ['-s', { name: 'session', takesValue: true }],
  ['--session', { name: 'session', takesValue: true }],
  ['--reasoning', { name: 'reasoning', takesValue: true }],
];

export interface TurnFlagValues {
  readonly route?: unknown;
  readonly model?: unknown;
  readonly reasoning?: unknown;
  readonly session?: unknown;
  readonly new?: unknown;
  readonly continue?: unknown;
}

/** The choices the turn flags make; throws a UsageError when more than one of them picks the session. */
export function turnChoicesOf(flags: TurnFlagValues, usage: string): TurnChoices {
  const selected = [flags.session !== undefined, flags.new === true, flags.continue === true].filter(Boolean).length;
  if (selected > 1)
    throw new UsageError('`--session`, `--new` and `--continue` each pick the session: give one.', usage);
  return {
    ...(typeof flags.route === 'string' ? { route: flags.route } : {}),
    ...(typeof flags.model === 'string' ? { model: flags.model } : {}),
    ...(typeof flags.reasoning === 'string' ? { reasoning: flags.reasoning as Reasoning } : {}),
    ...(typeof flags.session === 'string'
      ? { session: { kind: 'named', name: flags.session } }
      : flags.new === true
        ? { session: { kind: 'new' } }
        : flags.continue === true
          ? { session: { kind: 'continue' } }
          : {}),
  };
}
