const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 80;

/** A one-character spinner on stderr while a request waits for its first byte; nothing off a terminal. */
export class Spinner {
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;

  start(): void {
    if (process.stderr.isTTY !== true || this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      process.stderr.write(`\r${FRAMES[this.#frame++ % FRAMES.length]} `);
    }, FRAME_MS);
  }

  /** Clears the spinner, so the next output starts on a clean line. */
  stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    process.stderr.write('\r\u001b[K');
  }
}
