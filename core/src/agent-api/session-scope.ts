import type { SessionScope } from '../turn/turn-hooks.js';

/**
 * A scope for a host that runs several turns in one process (docs/embedding.md): pass it as
 * `scope` to every `agent.run` of the session and call `close()` when the session ends.
 */
export function createSessionScope(): SessionScope {
  const kept = new Map<string, unknown>();
  const releases: (() => Promise<void>)[] = [];
  let closed = false;
  return {
    keep<T>(key: string, make: () => T): T {
      if (!kept.has(key)) kept.set(key, make());
      return kept.get(key) as T;
    },
    peek<T>(key: string): T | undefined {
      return kept.get(key) as T | undefined;
    },
    onClose(release) {
      releases.push(release);
    },
    async close() {
      if (closed) return;
      closed = true;
      // One failing release must not keep the others (a server's process) running.
      for (const release of releases.splice(0).reverse()) await release().catch(() => undefined);
      kept.clear();
    },
  };
}
