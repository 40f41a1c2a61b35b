import type { CwSnapshot } from './snapshot.js';

/**
 * Reads one feature's session state from a snapshot: what its `loadState` tap put there, or
 * `fallback` when the feature has none (a fresh session, a snapshot built without the feature).
 */
export function featureState<T>(snapshot: CwSnapshot, feature: string, fallback: T): T {
  return (Object.hasOwn(snapshot.features, feature) ? snapshot.features[feature] : fallback) as T;
}

/** The snapshot with one feature's state replaced; the rest of the snapshot is shared, never copied deep. */
export function withFeatureState(snapshot: CwSnapshot, feature: string, state: unknown): CwSnapshot {
  if (snapshot.features[feature] === state) return snapshot;
  return { ...snapshot, features: { ...snapshot.features, [feature]: state } };
}
