/** A map that keeps only its most recently used entries: the per-process caches of docs/performance.md. */
export class SmallLru<Key, Value> {
  readonly #entries = new Map<Key, Value>();
  // The most recently used key: looking it up again moves nothing.
  #newest: Key | undefined;

  constructor(readonly capacity: number) {}

  /** The value under `key`, which becomes the most recently used; undefined when there is none. */
  get(key: Key): Value | undefined {
    const value = this.#entries.get(key);
    if (value === undefined || key === this.#newest) return value;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    this.#newest = key;
    return value;
  }

  /** Stores `value`, dropping the least recently used entry when full. */
  set(key: Key, value: Value): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    this.#newest = key;
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
  }

  /** How many entries it holds. */
  get size(): number {
    return this.#entries.size;
  }

  /** Forgets everything. */
  clear(): void {
    this.#entries.clear();
    this.#newest = undefined;
  }
}
