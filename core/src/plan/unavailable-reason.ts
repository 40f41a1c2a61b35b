// Why a manifest section is not exact. Each reason names what a real turn would do that a preview
// may not. These are the core's own reasons, the ones no feature owns; a feature or a plugin adds its
// own through the registry's reason table (turn/reason-table.ts), which starts from this list.
import type { ReasonEntry } from '../turn/reason-table.js';

/** The core's reasons that take `route`, `tools` and `body` alike. */
export const TURN_REASONS = ['no-hypothetical-prompt-supplied', 'blocked-by-plugin-gate', 'route-plan-failed'] as const;

/** The core's reasons a prepared request meets: only the sections decided after preparation carry them. */
export const PREPARED_REASONS = [
  'request-preparation-failed',
  'runtime-transforms-before-send',
  'input-budget-exceeded',
] as const;

/** The only reason provider-reported usage can carry in a preview. */
export const USAGE_REASONS = ['provider-request-not-executed'] as const;

/** Why the offline tokenizer count is absent; it is a sub-field of an exact body, not a section. */
export const TOKENIZER_REASONS = [
  'no-offline-tokenizer-for-route',
  'offline-tokenizer-not-requested',
  'offline-tokenizer-failed',
] as const;
/** A typed reason for a missing offline tokenizer count. */
export type TokenizerReason = (typeof TOKENIZER_REASONS)[number];

/**
 * Why a cost is unknown. The first three are the price's side and may also leave the manifest's input
 * cost estimate unavailable; the last two are the provider's usage report (docs/cli.md, "Cost").
 */
export const INPUT_COST_REASONS = ['route-not-metered', 'no-published-price', 'price-incomplete'] as const;
/** A typed reason for an input cost estimate the manifest cannot give. */
export type InputCostReason = (typeof INPUT_COST_REASONS)[number];
/** Every reason a step's, turn's or estimate's cost may be unknown. */
export const COST_REASONS = [...INPUT_COST_REASONS, 'usage-not-reported', 'usage-inconsistent'] as const;
/** A typed reason for an unknown cost. */
export type CostReason = (typeof COST_REASONS)[number];
/** One of the core's own reasons. */
export type CoreReason =
  | (typeof TURN_REASONS)[number]
  | (typeof PREPARED_REASONS)[number]
  | (typeof USAGE_REASONS)[number]
  | TokenizerReason
  | InputCostReason;

/**
 * A typed unavailable reason, serialized in kebab-case: one of the core's, or one a feature or plugin
 * registered (a plugin's is `<package>:<label>`).
 */
export type UnavailableReason = CoreReason | (string & {});

/** The core's reasons with the words a person reads and where each may stand, in the order docs list them. */
export const CORE_REASONS: readonly ReasonEntry[] = [
  {
    reason: 'no-hypothetical-prompt-supplied',
    label: 'no hypothetical prompt supplied: the next user message is part of the request',
    places: ['route', 'tools', 'body'],
    registeredBy: 'cw',
  },
  {
    reason: 'blocked-by-plugin-gate',
    label: "a plugin's gate stops this turn (the detail names the plugin and its reason)",
    places: ['route', 'tools', 'body'],
    registeredBy: 'cw',
  },
  {
    reason: 'route-plan-failed',
    label: 'the route could not be resolved for this turn',
    places: ['route', 'tools', 'body'],
    registeredBy: 'cw',
  },
  {
    reason: 'request-preparation-failed',
    label: 'request preparation failed',
    places: ['route', 'tools', 'body'],
    registeredBy: 'cw',
  },
  {
    reason: 'runtime-transforms-before-send',
    label: 'the turn would transform this request before sending it',
    places: ['body'],
    registeredBy: 'cw',
  },
  {
    reason: 'input-budget-exceeded',
    label: 'the request does not fit the input budget of the route, so cw send would refuse it',
    places: ['body'],
    registeredBy: 'cw',
  },
  {
    reason: 'provider-request-not-executed',
    label: 'no request was sent, so there is no provider-reported usage',
    places: ['usage'],
    registeredBy: 'cw',
  },
  {
    reason: 'route-not-metered',
    label: 'the route is not billed per token (a local server or a subscription)',
    places: ['input-cost'],
    registeredBy: 'cw',
  },
  {
    reason: 'no-published-price',
    label: 'the route row has no published price for this model',
    places: ['input-cost'],
    registeredBy: 'cw',
  },
  {
    reason: 'price-incomplete',
    label: 'the price row leaves a price this figure needs unknown',
    places: ['input-cost'],
    registeredBy: 'cw',
  },
  {
    reason: 'no-offline-tokenizer-for-route',
    label: 'no offline tokenizer ships for this route',
    places: ['tokenizer'],
    registeredBy: 'cw',
  },
  {
    reason: 'offline-tokenizer-not-requested',
    label: 'the offline tokenizer was not run for this call',
    places: ['tokenizer'],
    registeredBy: 'cw',
  },
  {
    reason: 'offline-tokenizer-failed',
    label: 'the offline tokenizer could not be loaded',
    places: ['tokenizer'],
    registeredBy: 'cw',
  },
];

/** The unavailable form of a section or sub-field: a reason, a redacted detail or null, and no fields. */
export interface Unavailable<Reason extends string = UnavailableReason> {
  unavailable: { reason: Reason; detail: string | null };
}

/** Builds the unavailable form; `detail` must already be redacted. */
export function unavailable<Reason extends string>(reason: Reason, detail: string | null = null): Unavailable<Reason> {
  return { unavailable: { reason, detail } };
}

/** Every reason a manifest may give: a section's, usage's, the offline tokenizer count's or the input cost's. */
export type ManifestReason = UnavailableReason;
