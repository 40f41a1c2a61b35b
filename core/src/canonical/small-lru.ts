/** A map that keeps only its most recently used entries: the per-process caches of docs/performance.md. */
export class SmallLru<Key, Value> {
  readonly #entries = new Map<Key, Entry<Value>>();
  // A use count per entry rather than moving the key to the end of the map on every hit: a preview
  // looks up many keys of the same caches in turn, and each move grew the map's table until it was
  // rebuilt. The least recently used entry is found by its count when one must go.
  #uses = 0;

  constructor(readonly capacity: number) {}

  /** The value under `key`, which becomes the most recently used; undefined when there is none. */
  get(key: Key): Value | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#uses += 1;
    entry.used = this.#uses;
    return entry.value;
  }

  /** Stores `value`, dropping the least recently used entry when full. */
  set(key: Key, value: Value): void {
    this.#uses += 1;
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      entry.value = value;
      entry.used = this.#uses;
      return;
    }
    if (this.#entries.size >= this.capacity) this.#dropOldest();
    this.#entries.set(key, { value, used: this.#uses });
  }

  /** How many entries it holds. */
  get size(): number {
    return this.#entries.size;
  }

  /** Forgets everything. */
  clear(): void {
    this.#entries.clear();
  }

  #dropOldest(): void {
    let oldest: Key | undefined;
    let oldestUse = Number.POSITIVE_INFINITY;
    for (const [key, entry] of this.#entries) {
      if (entry.used < oldestUse) {
        oldest = key;
        oldestUse = entry.used;
      }
    }
    if (oldestUse !== Number.POSITIVE_INFINITY) this.#entries.delete(oldest as Key);
  }
}

interface Entry<Value> {
  value: Value;
  used: number;
}
