import { createRequire } from 'node:module';

/** How long one search's regular expression may run in all, unless the limits say otherwise. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 10_000;

/** The pattern ran past its time limit; the worker running it was stopped. */
export class RegexTimeoutError extends Error {
  override readonly name = 'RegexTimeoutError';
  constructor(readonly limitMs: number) {
    super(`the regular expression ran longer than ${limitMs} ms and was stopped`);
  }
}

/** Finds matching lines off the main thread, so a catastrophic pattern cannot stall the agent loop. */
export interface LineMatcher {
  /** Indexes of the lines of `text` that match, at most `limit`; throws RegexTimeoutError past the deadline. */
  match(text: string, limit: number): Promise<number[]>;
  close(): Promise<void>;
}

// The worker's whole program: it compiles the pattern once and answers each text with matching line indexes.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.pattern);
parentPort.on('message', ({ id, text, limit }) => {
  const found = [];
  const lines = text.split('\\n');
  for (let index = 0; index < lines.length && found.length < limit; index++) {
    if (regex.test(lines[index].replace(/\\r$/, ''))) found.push(index);
  }
  parentPort.postMessage({ id, found });
});
`;

// node:worker_threads loads when a search runs, not when cw loads its plugins.
const requireBuiltin = createRequire(import.meta.url);

/**
 * Starts a worker for one search; every match shares one deadline, `timeoutMs` from now. Past it the
 * worker is terminated (a regular expression cannot be interrupted any other way) and the pending
 * match rejects with RegexTimeoutError.
 */
export function startLineMatcher(pattern: string, timeoutMs: number): LineMatcher {
  const { Worker } = requireBuiltin('node:worker_threads') as typeof import('node:worker_threads');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pattern } });
  const deadline = Date.now() + timeoutMs;
  let next = 0;
  let closed = false;
  worker.unref();
  const stop = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await worker.terminate();
  };
  return {
    match(text, limit) {
      const id = next++;
      return new Promise<number[]>((resolve, reject) => {
        const timer = setTimeout(
          () => {
            cleanup();
            void stop();
            reject(new RegexTimeoutError(timeoutMs));
          },
          Math.max(0, deadline - Date.now()),
        );
        const onMessage = (answer: { id: number; found: number[] }): void => {
          if (answer.id !== id) return;
          cleanup();
          resolve(answer.found);
        };
        const onError = (error: Error): void => {
          cleanup();
          reject(error);
        };
        const cleanup = (): void => {
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('error', onError);
        };
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.postMessage({ id, text, limit });
      });
    },
    close: stop,
  };
}
