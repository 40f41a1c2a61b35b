import type { CoreTurnHooks } from '../../turn/core-turn-types.js';
import { featureState, withFeatureState } from '../../snapshot/feature-state.js';
import type { CwSnapshot } from '../../snapshot/snapshot.js';
import { REQUEST_SECTIONS } from '../../turn/reason-table.js';
import { readAutoRouteChoice, writeAutoRouteChoice, type AutoRouteChoice } from './auto-route-choice.js';
import { classifyRoute } from './classify-route.js';
import { AUTO_ROUTE } from './on-route.js';

/** Auto routing's name among the features. */
export const AUTO_ROUTE_FEATURE = 'auto-route';

/** Auto routing's session state: whether a route is still to be chosen, and the session's latest choice. */
export interface AutoRouteState {
  /** The route is `auto` and this turn has not been placed on a route yet. */
  readonly pending: boolean;
  /** The route chosen for the session's latest prompt: a loop continuation stays on it. */
  readonly choice: string | null;
  /** The choice this send made, written with the turn it routed. */
  readonly made?: AutoRouteChoice;
}

const OFF: AutoRouteState = { pending: false, choice: null };

/** Auto routing's state in a snapshot. */
export function autoRouteStateOf(snapshot: CwSnapshot): AutoRouteState {
  return featureState<AutoRouteState>(snapshot, AUTO_ROUTE_FEATURE, OFF);
}

/**
 * The snapshot planned on one route auto routing chose: a fixed route with its default model, and
 * auto routing no longer pending.
 */
export function onRoute(snapshot: CwSnapshot, routeId: string, made?: AutoRouteChoice): CwSnapshot {
  const { model: _model, ...config } = snapshot.config;
  const state: AutoRouteState = {
    pending: false,
    choice: routeId,
    ...(made === undefined ? {} : { made }),
  };
  return withFeatureState({ ...snapshot, config: { ...config, route: routeId } }, AUTO_ROUTE_FEATURE, state);
}

/**
 * Auto routing (docs/auto-routing.md) as a turn feature: with `route: "auto"`, a send asks the
 * classifier route for each new prompt once it is resolved, and plans the turn on the answer; a
 * continuation stays on the latest choice; preview reports the classification it may not run.
 */
export function applyAutoRoute(hooks: CoreTurnHooks): void {
  // Last of the built-in stages: the classifier reads the prompt as hooks and resolution left it.
  const stage = hooks.stages.register(AUTO_ROUTE_FEATURE, 400);
  hooks.reasons.register({
    reason: 'auto-route-unresolved-until-next-prompt',
    label: 'auto model routing is unresolved until the next prompt',
    places: REQUEST_SECTIONS,
    registeredBy: AUTO_ROUTE_FEATURE,
  });
  hooks.reasons.register({
    reason: 'auto-route-classification-not-executed',
    label: 'auto route classification was not executed because preview is offline',
    places: REQUEST_SECTIONS,
    registeredBy: AUTO_ROUTE_FEATURE,
  });
  hooks.notices.register({
    kind: 'auto-route',
    description: 'Auto routing chose the route this turn is sent on.',
    fields: { route: { type: 'identifier', description: 'The route chosen.' } },
    text: (fields) => `auto routing chose route ${String(fields['route'])}`,
    registeredBy: AUTO_ROUTE_FEATURE,
  });
  hooks.loadState.tapPromise(AUTO_ROUTE_FEATURE, async (snapshot, context) => {
    if (snapshot.config.route !== AUTO_ROUTE || context.waiting) return snapshot;
    const choice = context.fresh
      ? null
      : ((await readAutoRouteChoice(context.home, snapshot.session.key))?.route ?? null);
    return withFeatureState(snapshot, AUTO_ROUTE_FEATURE, { pending: true, choice });
  });
  hooks.gate.tap({ name: AUTO_ROUTE_FEATURE, stage }, ({ snapshot, input, phase }) => {
    const state = autoRouteStateOf(snapshot);
    if (snapshot.purpose === 'side' || !state.pending) return undefined;
    // Decided after hooks and prompt resolution: the classifier needs the resolved text, and preview never calls it.
    if (input === 'prompt')
      return phase === 'plan' ? { reason: 'auto-route-classification-not-executed', detail: null } : undefined;
    // A continuation with a recorded choice is placed on it when the turn is prepared.
    if (input === 'continuation' && phase === 'before-prepare' && state.choice !== null) return undefined;
    return { reason: 'auto-route-unresolved-until-next-prompt', detail: null };
  });
  hooks.prepareTurn.tapPromise({ name: AUTO_ROUTE_FEATURE, stage }, async (draft, context) => {
    const { snapshot, prompt } = draft;
    const state = autoRouteStateOf(snapshot);
    if (!state.pending) return draft;
    // A continuation stays on the route chosen for the prompt that started the loop.
    if (prompt === undefined)
      return state.choice === null ? draft : { snapshot: onRoute(snapshot, state.choice), prompt };
    if (context.mode === 'preview') return draft;
    const text = typeof prompt === 'string' ? prompt : prompt.text;
    const chosen = await classifyRoute(snapshot, text, context);
    context.notify?.({ kind: 'auto-route', route: chosen.route });
    const made: AutoRouteChoice = { version: 1, route: chosen.route, classifier_route: chosen.classifierRoute };
    return { snapshot: onRoute({ ...snapshot, features: chosen.features }, chosen.route, made), prompt };
  });
  // The route auto routing chose lands with the turn it routed.
  hooks.afterSave.tapPromise(AUTO_ROUTE_FEATURE, async ({ home, snapshot, userMessage }) => {
    const made = autoRouteStateOf(snapshot).made;
    if (userMessage !== null && made !== undefined) await writeAutoRouteChoice(home, snapshot.session.key, made);
  });
  hooks.describeSession.tap(AUTO_ROUTE_FEATURE, (facts, snapshot) =>
    autoRouteStateOf(snapshot).pending
      ? { ...facts, requested_route: 'auto', requested_model: 'auto', routing_mode: 'auto' }
      : facts,
  );
}
