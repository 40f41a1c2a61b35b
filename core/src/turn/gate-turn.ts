import type { TurnInput } from '../plan-turn.js';
import type { CwSnapshot } from '../snapshot/snapshot.js';
import type { GatePhase, GateStop } from './turn-hooks.js';

/**
 * Asks the snapshot's gates, in stage order, whether the turn may go: the first stop wins. A gate
 * that throws is a broken plugin, and fails the turn closed with the throw.
 */
export function gateTurn(snapshot: CwSnapshot, input: TurnInput | null, phase: GatePhase): GateStop | null {
  return snapshot.registry.turn.gate.call({ snapshot, input, phase }) ?? null;
}
