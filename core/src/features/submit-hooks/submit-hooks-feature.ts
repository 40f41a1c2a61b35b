import type { CoreTurnHooks } from '../../turn/core-turn-types.js';
import { toolEnvironment } from '../../agent/tool-environment.js';
import { featureState, withFeatureState } from '../../snapshot/feature-state.js';
import type { CwSnapshot } from '../../snapshot/snapshot.js';
import { REQUEST_SECTIONS } from '../../turn/reason-table.js';
import { runMessageSubmitHooks } from './message-submit-hooks.js';

/** The submit hooks' name among the features. */
export const SUBMIT_HOOKS_FEATURE = 'submit-hooks';

/** Whether the configured hooks are still to run on this turn's prompt. */
function hooksPending(snapshot: CwSnapshot): boolean {
  return snapshot.config.hooks.message_submit.length > 0 && !featureState(snapshot, SUBMIT_HOOKS_FEATURE, false);
}

/**
 * `message_submit` hooks (docs/hooks.md) as a turn feature: a send runs them on every new prompt
 * after the goal allowed the turn and before the prompt is resolved; preview never runs a program,
 * so it reports them.
 */
export function applySubmitHooks(hooks: CoreTurnHooks): void {
  // After the goal allowed the turn, before the prompt is resolved (docs/architecture.md).
  const stage = hooks.stages.register(SUBMIT_HOOKS_FEATURE, 200);
  hooks.reasons.register({
    reason: 'message-submit-hooks-not-executed',
    label: 'message-submit hooks are configured and a preview must not run them',
    places: REQUEST_SECTIONS,
    registeredBy: SUBMIT_HOOKS_FEATURE,
  });
  hooks.gate.tap({ name: SUBMIT_HOOKS_FEATURE, stage }, ({ snapshot, input, phase }) =>
    snapshot.purpose !== 'side' && input === 'prompt' && phase === 'plan' && hooksPending(snapshot)
      ? { reason: 'message-submit-hooks-not-executed', detail: null }
      : undefined,
  );
  hooks.prepareTurn.tapPromise({ name: SUBMIT_HOOKS_FEATURE, stage }, async (draft, context) => {
    const { snapshot, prompt } = draft;
    if (context.mode === 'preview' || typeof prompt !== 'string' || !hooksPending(snapshot)) return draft;
    const rewritten = await runMessageSubmitHooks(
      snapshot.config.hooks.message_submit,
      { prompt, session: snapshot.session.name },
      {
        cwd: snapshot.workingContext?.cwd ?? process.cwd(),
        // The same environment tools get: no route's API key, nothing named like a credential.
        env: toolEnvironment(context.env, snapshot.registry.rows, snapshot.config),
        ...(context.signal ? { signal: context.signal } : {}),
        ...(context.sandbox ? { sandbox: context.sandbox } : {}),
        ...(snapshot.workingContext ? { workspace: snapshot.workingContext.workspace } : {}),
      },
    );
    return { snapshot: withFeatureState(snapshot, SUBMIT_HOOKS_FEATURE, true), prompt: rewritten };
  });
  // The facts as they came when they already say so: a preview copies them no more than it must.
  hooks.describeSession.tap(SUBMIT_HOOKS_FEATURE, (facts, snapshot) => {
    const count = snapshot.config.hooks.message_submit.length;
    return facts.message_submit_hook_count === count ? facts : { ...facts, message_submit_hook_count: count };
  });
}
