import type { CapabilityRow, ReasoningSelection } from '../route/capability-row.js';
import { autoReasoningTier } from './auto-reasoning-tier.js';
import type { ReasoningPlan } from './wire-body.js';

/**
 * Decides the reasoning control from the row: the user's tier (or the route default) mapped to the
 * route's wire value. `auto` picks the tier from `autoText`, the turn's latest user message. A tier
 * the row maps to null, or a route without a control, sends nothing.
 */
export function planReasoning(
  row: CapabilityRow,
  requested: ReasoningSelection | undefined,
  autoText = '',
): ReasoningPlan | null {
  const control = row.reasoning;
  if (!control) return null;
  const tier = requested === 'auto' ? autoReasoningTier(autoText) : (requested ?? control.default_tier);
  if (!tier) return null;
  const wireValue = control.values[tier];
  const alsoSet = {
    ...control.also_set.all,
    ...(tier === 'off' ? {} : control.also_set.on),
    ...control.also_set[tier],
  };
  if (wireValue === undefined || wireValue === null) {
    // Some routes turn thinking off with a toggle only (e.g. thinking.type = disabled) and no effort.
    if (Object.keys(alsoSet).length === 0) return null;
  }
  return {
    tier,
    origin: requested === 'auto' ? 'auto' : requested ? 'explicit' : 'route-default',
    keyPath: control.key_path,
    wireValue: wireValue ?? null,
    alsoSet,
  } as ReasoningPlan;
}

/** Writes a value at a dotted path, creating objects on the way; existing keys keep their wire position. */
export function setPath(body: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node: Record<string, unknown> = body;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1] as string] = value;
}
