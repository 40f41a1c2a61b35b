import type { SessionFacts } from '../manifest/manifest-schema.js';
import type { MeasuredBody } from '../plan/measure-body.js';
import type { BlockedTurn, ReadyTurn } from '../plan-turn.js';
import type { CwSnapshot } from '../snapshot/snapshot.js';
import type {
  GateContext,
  RequestContext,
  ResolveContext,
  Resolved,
  SavedContext,
  SendResources,
  StepToolsContext,
  TransformContext,
  TurnDraft,
  TurnHooks,
  TurnTypes,
} from './turn-hooks.js';

/** The types the turn hooks carry in cw: its snapshot, plans, measured bodies and manifest facts. */
export interface CoreTurnTypes extends TurnTypes {
  readonly snapshot: CwSnapshot;
  readonly blocked: BlockedTurn;
  readonly ready: ReadyTurn;
  readonly measured: MeasuredBody;
  readonly facts: SessionFacts;
}

/** The turn hooks with cw's types: what features, the loop and plugins tap. */
export type CoreTurnHooks = TurnHooks<CoreTurnTypes>;
/** What a gate sees in cw. */
export type CoreGateContext = GateContext<CoreTurnTypes>;
/** The turn being prepared in cw. */
export type CoreTurnDraft = TurnDraft<CoreTurnTypes>;
/** What a send holds open in cw. */
export type CoreSendResources = SendResources<CoreTurnTypes>;
/** A block being resolved under the lock in cw. */
export type CoreResolveContext = ResolveContext<CoreTurnTypes>;
/** What resolving a block changed in cw. */
export type CoreResolved = Resolved<CoreTurnTypes>;
/** What a step may run in cw. */
export type CoreStepToolsContext = StepToolsContext<CoreTurnTypes>;
/** A completed request in cw. */
export type CoreRequestContext = RequestContext<CoreTurnTypes>;
/** A saved step in cw. */
export type CoreSavedContext = SavedContext<CoreTurnTypes>;
/** A measured request a send may transform in cw. */
export type CoreTransformContext = TransformContext<CoreTurnTypes>;

/**
 * A registry's turn hooks with cw's types. The registry declares them over unknown types (a registry
 * cannot name the snapshot that holds it); every hook is created and tapped with these.
 */
export function turnHooksOf(registry: { readonly turn: TurnHooks }): CoreTurnHooks {
  return registry.turn as unknown as CoreTurnHooks;
}
