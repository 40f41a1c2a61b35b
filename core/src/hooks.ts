import { SyncBailHook, SyncWaterfallHook } from 'tapable';
import { placeReasoning, REASONING_PLACEMENT_STAGE, REASONING_PLACEMENT_TAP } from './body/place-reasoning.js';
import type { BuildContext, WireBody } from './body/wire-body.js';
import { stampAnswer } from './route/answered-by.js';
import type { ResolvedRoute, RouteQuery } from './route/route-types.js';
import type { ProjectionContext, ToolProjection } from './tools/tool-projection-types.js';

/**
 * The extension points of cw, owned by the core. Plugins tap them with their package name, so every
 * manifest field traces back to the stage or plugin that produced it (docs/architecture.md).
 */
export class CoreHooks {
  /**
   * Bail: the first tap that recognises the route id answers. Each answer is stamped with the tap's
   * name (route/answered-by.ts), so the core knows which plugin resolved a route and can hold it to the route's owner.
   */
  readonly resolveRoute = (() => {
    const hook = new SyncBailHook<[RouteQuery], ResolvedRoute | undefined>(['query']);
    hook.intercept({
      register: (tap) => {
        const answer = tap.fn as (query: RouteQuery) => ResolvedRoute | undefined;
        const fn = (query: RouteQuery): ResolvedRoute | undefined => {
          const resolved = answer(query);
          return resolved === undefined || resolved === null ? resolved : stampAnswer(resolved, tap.name);
        };
        return { ...tap, fn };
      },
    });
    return hook;
  })();
  /** Waterfall: the core's projection engine taps first; later taps may refine the result. */
  readonly projectTools = new SyncWaterfallHook<[ToolProjection, ProjectionContext]>(['projection', 'context']);
  /**
   * Waterfall over the body the route's dialect built: the core places the reasoning control at
   * stage 50; route refiners registered with `api.refineBody` run later, each only on its routes.
   */
  readonly buildBody = (() => {
    const hook = new SyncWaterfallHook<[WireBody, BuildContext]>(['body', 'context']);
    hook.tap({ name: REASONING_PLACEMENT_TAP, stage: REASONING_PLACEMENT_STAGE }, placeReasoning);
    return hook;
  })();
}
