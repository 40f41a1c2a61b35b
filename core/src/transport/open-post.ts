import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Timeouts } from './transport-settings.js';

// node:http and node:https are loaded on the first send, not when the core loads: a preview never
// sends, and the two cost a tenth of Node's own start-up (docs/performance.md).
const requireBuiltin = createRequire(import.meta.url);

/** Which of cw's timeouts ended an exchange. */
export type TimeoutPhase = 'connect' | 'first-byte' | 'idle' | 'total';

/** One of cw's own timeouts fired; the exchange was cut at that phase. */
export class TimeoutFired extends Error {
  override readonly name = 'TimeoutFired';
  constructor(
    readonly phase: TimeoutPhase,
    readonly limitMs: number,
  ) {
    super(`${phase} timeout after ${limitMs} ms`);
  }
}

/**
 * Sends one POST and resolves once the response status line arrived. Connect and first-byte time
 * are bounded separately, and both by the exchange's deadline. Redirects are never followed: the
 * caller sees the 3xx, so a credential cannot travel to an address the user did not configure.
 */
export function openPost(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeouts: Timeouts,
  deadline: number,
  signal?: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = (
      requireBuiltin(target.protocol === 'https:' ? 'node:https' : 'node:http') as typeof import('node:http')
    ).request;
    const request = send(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body, 'utf8')) },
    });
    let timer: NodeJS.Timeout | undefined;
    const arm = (phase: TimeoutPhase, limitMs: number): void => {
      clearTimeout(timer);
      const left = deadline - Date.now();
      const [firing, wait] = left < limitMs ? (['total', timeouts.totalMs] as const) : ([phase, limitMs] as const);
      timer = setTimeout(() => request.destroy(new TimeoutFired(firing, wait)), Math.max(0, Math.min(left, limitMs)));
    };
    const onAbort = (): void => {
      request.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    arm('connect', timeouts.connectMs);
    request.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => arm('first-byte', timeouts.firstByteMs));
      else arm('first-byte', timeouts.firstByteMs);
    });
    request.on('response', (response) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(response);
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    request.end(body);
  });
}
