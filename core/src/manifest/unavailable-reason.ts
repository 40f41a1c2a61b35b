/** Why a manifest section is not exact. Each names what a real turn would do that a preview may not. */
export const UNAVAILABLE_REASONS = [
  'auto-route-unresolved-until-next-prompt',
  'auto-route-classification-not-executed',
  'no-hypothetical-prompt-supplied',
  'message-submit-hooks-not-executed',
  'prompt-resolution-failed',
  'route-plan-failed',
  'mcp-state-not-snapshottable',
  'runtime-transforms-before-send',
  'goal-token-budget-exhausted',
  'goal-state-not-snapshottable',
  'request-preparation-failed',
  'provider-request-not-executed',
] as const;

/** A typed unavailable reason, serialized in kebab-case. */
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** A section that could not be described exactly: a reason, an optional redacted detail, and no fields. */
export interface Unavailable {
  readonly unavailable: { readonly reason: UnavailableReason; readonly detail: string | null };
}

/** A manifest section: exact facts, or typed-unavailable with no fields at all. */
export type Availability<T> = { readonly exact: T } | Unavailable;

/** Builds the unavailable form of a section. */
export function unavailable(reason: UnavailableReason, detail: string | null = null): Unavailable {
  return { unavailable: { reason, detail } };
}

/** Words a person reads for each reason, in the human table. */
export const REASON_LABELS: Readonly<Record<UnavailableReason, string>> = {
  'auto-route-unresolved-until-next-prompt': 'auto model routing is unresolved until the next prompt',
  'auto-route-classification-not-executed': 'auto route classification was not executed because preview is offline',
  'no-hypothetical-prompt-supplied': 'no hypothetical prompt supplied: the next user message is part of the request',
  'message-submit-hooks-not-executed': 'message-submit hooks are configured and a preview must not run them',
  'prompt-resolution-failed': 'the prompt could not be resolved into model-facing content',
  'route-plan-failed': 'the route could not be resolved for this turn',
  'mcp-state-not-snapshottable': 'MCP tool state cannot be snapshotted without connecting',
  'runtime-transforms-before-send': 'the turn loop would transform this request before sending it',
  'goal-token-budget-exhausted': 'the active goal token budget is exhausted; no request is eligible',
  'goal-state-not-snapshottable': 'the active goal state cannot be snapshotted exactly',
  'request-preparation-failed': 'request preparation failed',
  'provider-request-not-executed': 'no request was sent, so there is no provider-reported usage',
};
