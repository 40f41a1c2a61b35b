// V8 lays out an object built a member at a time (a class instance, a member added to a literal after
// it was made) through hidden classes that last only while some object uses them. When the last such
// object dies, a full collection drops them, and the next one is laid out again member by member, at
// several microseconds a member: for the objects a preview makes, more than the rest of a small
// preview (docs/performance.md, "Layouts that outlive a collection").
const kept: object[] = [];

/** Keeps `value` alive for the life of the process, so the layout it was built through stays; returns it. */
export function keepLayout<Value extends object>(value: Value): Value {
  kept.push(value);
  return value;
}

const latest = new Map<string, object>();

/** Keeps `value`, the newest of its kind, alive until a newer one of the same kind takes its place. */
export function keepLatestLayout(kind: string, value: object): void {
  latest.set(kind, value);
}
