import type { MeasuredBody } from '../plan/measure-body.js';
import type { TurnInput } from '../plan/turn-input.js';
import type { TurnPrompt } from '../prompt/user-message.js';
import type { CwSnapshot } from '../snapshot/snapshot.js';
import type { DueTransform, GatePhase, GateStop, TurnHooks, TurnTypes } from './turn-hooks.js';

// What the plan asks of the turn hooks: the gates and the transforms due. The plan's own types
// cannot be named here (they are the plan's), so the hooks are read with the snapshot and body types.
interface PlanTypes extends TurnTypes {
  readonly snapshot: CwSnapshot;
  readonly measured: MeasuredBody;
}

const hooksOf = (snapshot: CwSnapshot): TurnHooks<PlanTypes> =>
  snapshot.registry.turn as unknown as TurnHooks<PlanTypes>;

/**
 * Asks the snapshot's gates, in stage order, whether the turn may go: the first stop wins. A gate
 * that throws is a broken plugin, and fails the turn closed with the throw.
 */
export function gateTurn(snapshot: CwSnapshot, input: TurnInput | null, phase: GatePhase): GateStop | null {
  return hooksOf(snapshot).gate.call({ snapshot, input, phase }) ?? null;
}

/**
 * Asks the features whether a prepared request depends on what cannot be known offline (an MCP
 * server's tools with no snapshot): the first stop wins.
 */
export function checkRequest(snapshot: CwSnapshot, prompt: TurnPrompt | undefined): GateStop | null {
  return hooksOf(snapshot).checkRequest.call({ snapshot, prompt }) ?? null;
}

/** The transforms a send would still apply to this measured request (auto-compaction), in tap order. */
export function transformsDue(snapshot: CwSnapshot, measured: MeasuredBody): readonly DueTransform[] {
  return hooksOf(snapshot).transformsDue.call([], { snapshot, measured });
}
