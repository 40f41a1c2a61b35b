import type { REASONING } from './flag-table.js';
import { UsageError } from './usage-error.js';

// The turn flags' values become a turn's choices here, with no oclif in sight: the command and the
// oclif-free preview entry (fast-preview.ts) both call turnChoicesOf, so the same flags choose the
// same route, model, reasoning and session, and fail with the same words.

export { REASONING } from './flag-table.js';
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
export interface TurnFlagValues {
  readonly route?: unknown;
  readonly model?: unknown;
  readonly reasoning?: unknown;
  readonly session?: unknown;
  readonly new?: unknown;
  readonly continue?: unknown;
  /** `--resume <name>` (`cw chat`): the named session, which the command checks exists. */
  readonly resume?: unknown;
}

/** The choices the turn flags make; throws a UsageError when more than one of them picks the session. */
export function turnChoicesOf(flags: TurnFlagValues, usage: string): TurnChoices {
  const selected = [
    flags.session !== undefined,
    flags.new === true,
    flags.continue === true,
    flags.resume !== undefined,
  ].filter(Boolean).length;
  if (selected > 1)
    throw new UsageError('`--session`, `--new` and `--continue` each pick the session: give one.', usage);
  return {
    ...(typeof flags.route === 'string' ? { route: flags.route } : {}),
    ...(typeof flags.model === 'string' ? { model: flags.model } : {}),
    ...(typeof flags.reasoning === 'string' ? { reasoning: flags.reasoning as Reasoning } : {}),
    ...(typeof flags.session === 'string' || typeof flags.resume === 'string'
      ? { session: { kind: 'named', name: String(flags.session ?? flags.resume) } }
      : flags.new === true
        ? { session: { kind: 'new' } }
        : flags.continue === true
          ? { session: { kind: 'continue' } }
          : {}),
  };
}
