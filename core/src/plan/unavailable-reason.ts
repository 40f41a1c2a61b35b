// Why a manifest section is not exact. Each reason names what a real turn would do that a preview
// may not. The lists are plain data (no zod) so the renderer and the builder can use them without
// loading the schema; manifest-schema.ts builds its enums from them.

/** Reasons that take `route`, `tools` and `body` alike, in precedence order (first match wins). */
export const TURN_REASONS = [
  'goal-state-not-snapshottable',
  'goal-token-budget-exhausted',
  'auto-route-unresolved-until-next-prompt',
  'no-hypothetical-prompt-supplied',
  'message-submit-hooks-not-executed',
  'prompt-resolution-failed',
  'auto-route-classification-not-executed',
  'blocked-by-plugin-gate',
  'route-plan-failed',
] as const;

/** Reasons the `route` section can carry: a turn reason, or preparation failing after the route resolved. */
export const ROUTE_REASONS = [...TURN_REASONS, 'request-preparation-failed'] as const;
/** Reasons the `tools` section can carry: MCP state is the tools' own; projection failing is preparation failing. */
export const TOOLS_REASONS = [...TURN_REASONS, 'mcp-state-not-snapshottable', 'request-preparation-failed'] as const;
/**
 * Reasons the `body` section can carry: it inherits the tools' reason; MCP resources the prompt
 * mentions (a preview reads none), runtime transforms and an input budget the body does not fit are
 * its own.
 */
export const BODY_REASONS = [
  ...TURN_REASONS,
  'mcp-state-not-snapshottable',
  'mcp-resource-not-read',
  'request-preparation-failed',
  'runtime-transforms-before-send',
  'input-budget-exceeded',
] as const;
/** The only reason provider-reported usage can carry in a preview. */
export const USAGE_REASONS = ['provider-request-not-executed'] as const;

/** Every section reason, in the order the docs list them. */
export const UNAVAILABLE_REASONS = [...BODY_REASONS, ...USAGE_REASONS] as const;

/** A typed unavailable reason, serialized in kebab-case. */
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];
/** A reason that applies to all three request sections. */
export type TurnReason = (typeof TURN_REASONS)[number];

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

/** The unavailable form of a section or sub-field: a reason, a redacted detail or null, and no fields. */
export interface Unavailable<Reason extends string = UnavailableReason> {
  unavailable: { reason: Reason; detail: string | null };
}

/** Builds the unavailable form; `detail` must already be redacted. */
export function unavailable<Reason extends string>(reason: Reason, detail: string | null = null): Unavailable<Reason> {
  return { unavailable: { reason, detail } };
}

/** Every reason a manifest may give: a section's, usage's, the offline tokenizer count's or the input cost's. */
export type ManifestReason = UnavailableReason | TokenizerReason | InputCostReason;
