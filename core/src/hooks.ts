import { HookMap, SyncBailHook, SyncWaterfallHook } from 'tapable';
import type { JsonValue } from './canonical/canonical-json.js';
import { placeReasoning, REASONING_PLACEMENT_STAGE, REASONING_PLACEMENT_TAP } from './body/place-reasoning.js';
import type { AssistantReply, BodyLayout, BuildContext, ReplyPayload, WireBody } from './body/wire-body.js';
import type { RouteQuery, ResolvedRoute } from './route/resolve-route.js';
import type { ProjectionContext, ToolProjection } from './tools/project-tools.js';

/**
 * The extension points of cw, owned by the core. Plugins tap them with their package name, so every
 * manifest field traces back to the stage or plugin that produced it.
 */
export class CoreHooks {
  /** Bail: the first tap that recognises the route id answers. */
  readonly resolveRoute = new SyncBailHook<[RouteQuery], ResolvedRoute | undefined>(['query']);
  /** Waterfall: the core's projection engine taps first; later taps may refine the result. */
  readonly projectTools = new SyncWaterfallHook<[ToolProjection, ProjectionContext]>(['projection', 'context']);
  /**
   * Per dialect waterfall: the dialect plugin builds the body at stage 0, the core places the
   * reasoning control at stage 50, provider plugins refine it per route shape at later stages.
   */
  readonly buildBody = new HookMap<SyncWaterfallHook<[WireBody, BuildContext]>>(() => {
    const hook = new SyncWaterfallHook<[WireBody, BuildContext]>(['body', 'context']);
    hook.tap({ name: REASONING_PLACEMENT_TAP, stage: REASONING_PLACEMENT_STAGE }, placeReasoning);
    return hook;
  });
  /** Whether some plugin builds bodies for a dialect: a tap at stage 0 or earlier (the core's own tap does not count). */
  buildsDialect(dialect: string): boolean {
    return (
      this.buildBody.get(dialect)?.taps.some((tap) => tap.name !== REASONING_PLACEMENT_TAP && (tap.stage ?? 0) <= 0) ??
      false
    );
  }
  /** Per dialect bail: says where the dialect keeps the system region, items and reasoning keys. */
  readonly describeBody = new HookMap<SyncBailHook<[WireBody], BodyLayout | undefined>>(
    () => new SyncBailHook<[WireBody], BodyLayout | undefined>(['body']),
  );
  /** Per dialect bail: turns what the provider answered into text, tool calls and usage. */
  readonly decodeReply = new HookMap<SyncBailHook<[ReplyPayload], AssistantReply | undefined>>(
    () => new SyncBailHook<[ReplyPayload], AssistantReply | undefined>(['payload']),
  );
  /** Per dialect bail: the reply text one stream event adds, so send can print it as it arrives. */
  readonly readTextDelta = new HookMap<SyncBailHook<[JsonValue], string | undefined>>(
    () => new SyncBailHook<[JsonValue], string | undefined>(['event']),
  );
}
