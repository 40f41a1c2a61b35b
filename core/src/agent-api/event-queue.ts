/**
 * A push queue read as an async iterable: the loop pushes events as they happen, the host pulls them.
 * Events are kept until read, so a host that reads slowly loses none; `end` closes it.
 */
export class EventQueue<Event> implements AsyncIterable<Event> {
  readonly #items: Event[] = [];
  #waiting: ((result: IteratorResult<Event>) => void) | null = null;
  #ended = false;

  push(event: Event): void {
    if (this.#ended) return;
    const waiting = this.#waiting;
    if (waiting !== null) {
      this.#waiting = null;
      waiting({ value: event, done: false });
    } else this.#items.push(event);
  }

  end(): void {
    this.#ended = true;
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<Event> {
    return {
      next: () => {
        const item = this.#items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.#ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.#waiting = resolve;
        });
      },
    };
  }
}
