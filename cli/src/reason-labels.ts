import type { ManifestReason } from '@cw/core';

/** Words a person reads for each reason, in the human table. */
export const REASON_LABELS: Readonly<Record<ManifestReason, string>> = {
  'goal-state-not-snapshottable': 'the active goal state cannot be snapshotted exactly',
  'goal-token-budget-exhausted': 'the active goal token budget is exhausted; no request is eligible',
  'auto-route-unresolved-until-next-prompt': 'auto model routing is unresolved until the next prompt',
  'no-hypothetical-prompt-supplied': 'no hypothetical prompt supplied: the next user message is part of the request',
  'auto-route-classification-not-executed': 'auto route classification was not executed because preview is offline',
  'message-submit-hooks-not-executed': 'message-submit hooks are configured and a preview must not run them',
  'prompt-resolution-failed': 'the prompt could not be resolved into model-facing content',
  'blocked-by-plugin-gate': "a plugin's gate stops this turn (the detail names the plugin and its reason)",
  'route-plan-failed': 'the route could not be resolved for this turn',
  'mcp-state-not-snapshottable': 'MCP tool state cannot be snapshotted without connecting',
  'mcp-resource-not-read': 'MCP resources the prompt mentions are read only when the turn is sent',
  'request-preparation-failed': 'request preparation failed',
  'runtime-transforms-before-send': 'the turn would transform this request before sending it',
  'input-budget-exceeded': 'the request does not fit the input budget of the route, so cw send would refuse it',
  'provider-request-not-executed': 'no request was sent, so there is no provider-reported usage',
  'no-offline-tokenizer-for-route': 'no offline tokenizer ships for this route',
  'offline-tokenizer-not-requested': 'the offline tokenizer was not run for this call',
  'offline-tokenizer-failed': 'the offline tokenizer could not be loaded',
  'route-not-metered': 'the route is not billed per token (a local server or a subscription)',
  'no-published-price': 'the route row has no published price for this model',
  'price-incomplete': 'the price row leaves a price this figure needs unknown',
};
