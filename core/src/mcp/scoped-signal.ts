// The MCP SDK adds an `abort` listener to the signal of every request and never removes it, so one
// shared signal (Ctrl-C for a whole send) given to many servers and calls gathers listeners until
// Node warns (MaxListenersExceededWarning). Each request gets its own short-lived signal instead,
// and a parent carries at most one listener of ours, however many servers and calls hang from it.

const children = new WeakMap<AbortSignal, Set<AbortController>>();

/** A signal for one request that aborts with `parent`; `release` drops it once the request is settled. */
export interface ScopedSignal {
  readonly signal: AbortSignal;
  release(): void;
}

/** A child of `parent` (or a signal that never aborts without one), for exactly one request. */
export function scopedSignal(parent: AbortSignal | undefined): ScopedSignal {
  const controller = new AbortController();
  if (parent === undefined) return { signal: controller.signal, release: () => {} };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => {} };
  }
  let live = children.get(parent);
  if (live === undefined) {
    const set = new Set<AbortController>();
    live = set;
    children.set(parent, set);
    parent.addEventListener(
      'abort',
      () => {
        for (const child of set) child.abort(parent.reason);
        set.clear();
      },
      { once: true },
    );
  }
  live.add(controller);
  const set = live;
  return { signal: controller.signal, release: () => set.delete(controller) };
}

/** Runs `work` with a scoped child of `parent`, released when the work settles. */
export async function withScopedSignal<T>(
  parent: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const scoped = scopedSignal(parent);
  try {
    return await work(scoped.signal);
  } finally {
    scoped.release();
  }
}
