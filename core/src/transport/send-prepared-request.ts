import type { RetryNotice } from './retry-notice.js';
import { sha256Hex } from '../canonical/sha256.js';
import type { IncomingMessage } from 'node:http';
import type { DialectDefinition } from '../dialect/dialect-contract.js';
import type { PreparedOutboundRequest } from '../prepare-outbound-request.js';
import { safeEnvVarName } from '../redaction/safe-env-var-name.js';
import { ReplyAssembler, type AssistantReply } from '../reply/assemble-reply.js';
import type { TurnEvent } from '../reply/turn-events.js';
import { apiKeyFor, credentialHeader } from './api-key.js';
import { openPost, TimeoutFired, type TimeoutPhase } from './open-post.js';
import { ProviderError } from './provider-error.js';
import { providerErrorDetail, type ProviderErrorDetail } from './provider-error-text.js';
import { readWireEvents } from './read-wire-events.js';
import { isRetryableStatus, retryDelayMs } from './retry-policy.js';
import { requestUrlFor } from './test-origin.js';
import { DEFAULT_TRANSPORT_SETTINGS, type TransportSettings } from './transport-settings.js';

/** What one exchange produced: the reply and the provider's finish label. */
export interface ExchangeResult {
  readonly reply: AssistantReply;
  readonly finishReason: string;
}

export type { RetryNotice };

/** What an exchange reports while it runs, shaped as the turn's events so the loop passes them on. */
export type ExchangeEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'reasoning-delta'; readonly text: string }
  | { readonly type: 'retry'; readonly retry: RetryNotice };

/** Options of one exchange. */
export interface ExchangeOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  /**
   * The turn's sink: reply and reasoning text as they arrive (a blocking reply arrives whole, in the
   * result) and each retry before its wait.
   */
  readonly report?: (event: ExchangeEvent) => void;
  readonly settings?: TransportSettings;
  /** Text a provider's error message must never show (the prompt); the API key is always scrubbed. */
  readonly scrub?: readonly string[];
  /** Waits between retries; tests pass one that does not sleep. */
  readonly sleep?: (milliseconds: number) => Promise<void>;
}

// An error body is read only to show the provider's words; more than this is not an error message.
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * Sends `prepared.canonical.wireText` — the exact bytes the preview hashed — and decodes the reply in one pass
 * with the dialect's decoder. Failures before any reply byte (no connection, 408/409/429/5xx) are
 * retried with backoff. A reply counts only when the dialect says it finished: a stream cut short,
 * a stall, an error inside the stream or a reply of the wrong shape is a ProviderError.
 */
export async function sendPreparedRequest(
  prepared: PreparedOutboundRequest,
  dialect: DialectDefinition,
  options: ExchangeOptions,
): Promise<ExchangeResult> {
  const settings = options.settings ?? DEFAULT_TRANSPORT_SETTINGS;
  const key = apiKeyFor(prepared, options.env);
  // The route's own URL, unless a test run points it at a loopback server (docs/transport.md).
  const url = requestUrlFor(prepared.url, key, prepared.apiKeyEnv, options.env);
  const headers: Record<string, string> = { ...prepared.headers };
  if (key !== null) {
    const [name, value] = credentialHeader(prepared.route.row.auth, key);
    headers[name] = value;
  }
  const scrub = [...(key === null ? [] : [key]), ...(options.scrub ?? [])];
  const sleep =
    options.sleep ?? ((milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds)));
  const deadline = Date.now() + settings.timeouts.totalMs;
  // The text is written when first read, here: it must still be the body the preview digested, or
  // what goes out would not be what was shown.
  const bodyText = prepared.canonical.wireText;
  if (sha256Hex(bodyText) !== prepared.canonical.wireSha256) {
    throw new Error('the prepared body changed after it was digested; nothing was sent');
  }

  for (let attempt = 0; ; attempt++) {
    let response: IncomingMessage;
    try {
      response = await openPost(url, headers, bodyText, settings.timeouts, deadline, options.signal);
    } catch (error) {
      if (options.signal?.aborted) {
        throw new ProviderError('interrupted before the provider answered; nothing was saved', { kind: 'interrupted' });
      }
      const failure = connectionFailure(error);
      const cause = failure.timeout === 'connect' ? 'connect timeout' : (errorCode(error) ?? 'connection error');
      const retriable = failure.kind === 'network' || failure.timeout === 'connect';
      if (retriable && (await backOff(attempt, {}, cause))) continue;
      throw failure;
    }
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400) {
      response.resume();
      throw new ProviderError(
        `the endpoint answered with a redirect (HTTP ${status}); cw does not follow redirects, so the request and key go only to the configured address: set base_url to where the provider really serves`,
        { status, kind: 'redirect' },
      );
    }
    if (status < 200 || status >= 300) {
      const detail = providerErrorDetail(await readErrorBody(response), scrub);
      if (isRetryableStatus(status) && (await backOff(attempt, response.headers, `HTTP ${status}`))) continue;
      throw httpFailure(status, detail, prepared.apiKeyEnv);
    }
    return readReply(response, prepared, dialect, {
      settings,
      deadline,
      scrub,
      report: options.report,
      signal: options.signal,
    });
  }

  async function backOff(attempt: number, replyHeaders: IncomingMessage['headers'], cause: string): Promise<boolean> {
    if (attempt >= settings.maxRetries || options.signal?.aborted) return false;
    const delayMs = retryDelayMs(attempt + 1, replyHeaders, settings);
    if (Date.now() + delayMs >= deadline) return false;
    options.report?.({ type: 'retry', retry: { attempt: attempt + 1, delayMs, cause } });
    await sleep(delayMs);
    return true;
  }
}

/** Reads the reply body through the dialect's decoder, under the idle and total timeouts and the size cap. */
async function readReply(
  response: IncomingMessage,
  prepared: PreparedOutboundRequest,
  dialect: DialectDefinition,
  reading: {
    settings: TransportSettings;
    deadline: number;
    scrub: readonly string[];
    report: ((event: ExchangeEvent) => void) | undefined;
    signal: AbortSignal | undefined;
  },
): Promise<ExchangeResult> {
  const { settings, deadline, report, signal } = reading;
  // Ctrl-C while the reply streams: stop reading; what arrived is not a complete reply.
  const onAbort = (): void => void response.destroy(new Error('interrupted'));
  signal?.addEventListener('abort', onAbort, { once: true });
  const { idleMs } = settings.timeouts;
  let idleTimer: NodeJS.Timeout | undefined;
  const armIdle = (): void => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => response.destroy(new TimeoutFired('idle', idleMs)), idleMs);
  };
  const totalTimer = setTimeout(
    () => response.destroy(new TimeoutFired('total', settings.timeouts.totalMs)),
    Math.max(0, deadline - Date.now()),
  );
  const decoder = dialect.createDecoder();
  const assembler = new ReplyAssembler();
  const apply = (events: readonly TurnEvent[]): void => {
    for (const event of events) {
      assembler.apply(event);
      if ((event.type === 'text-delta' || event.type === 'reasoning-delta') && event.text !== '')
        report?.({ type: event.type, text: event.text });
    }
  };
  let wholeBody = false;
  let events = 0;
  const opening = { text: '' };
  try {
    armIdle();
    const stream = {
      status: response.statusCode ?? 0,
      contentType: String(response.headers['content-type'] ?? ''),
      body: sniffed(capped(response, settings.maxReplyBytes), opening),
    };
    for await (const event of readWireEvents(stream)) {
      // Progress is an event, not a byte: keep-alive comments alone never hold a stalled reply open.
      armIdle();
      events++;
      wholeBody = event.kind === 'body';
      apply(decoder.push(event));
    }
    apply(decoder.end());
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    if (error instanceof TimeoutFired) throw timeoutFailure(error.phase, error.limitMs);
    if (signal?.aborted) {
      throw new ProviderError('interrupted before the reply was complete; nothing was saved', {
        status: response.statusCode ?? null,
        kind: 'interrupted',
      });
    }
    throw new ProviderError(
      `the connection closed before the reply was complete${errorCode(error) ? ` (${errorCode(error)})` : ''}; nothing was saved`,
      { status: response.statusCode ?? null, kind: 'incomplete' },
    );
  } finally {
    clearTimeout(idleTimer);
    clearTimeout(totalTimer);
    signal?.removeEventListener('abort', onAbort);
  }
  const status = response.statusCode ?? null;
  const inStream = assembler.error;
  if (inStream !== null) {
    const detail = providerErrorDetail(JSON.stringify({ error: inStream }), reading.scrub);
    throw new ProviderError(
      `the provider reported an error inside its reply${describeDetail(detail)}; nothing was saved`,
      { status, kind: 'provider-error', detail },
    );
  }
  // An event of no known shape fails the reply even when a finish followed: it may have carried part of it.
  if (assembler.malformedAt !== null) {
    throw new ProviderError(
      `event ${assembler.malformedAt} of the provider's reply does not have the shape of a ${prepared.dialect} event; nothing was saved`,
      { status, kind: 'malformed' },
    );
  }
  if (assembler.finishReason === null) {
    if (wholeBody) {
      throw new ProviderError(
        `the provider's reply does not have the shape of a ${prepared.dialect} reply; nothing was saved`,
        { status, kind: 'malformed' },
      );
    }
    // A stream of no event whose body is a web page was never a reply: a proxy's page or a wrong base_url.
    if (events === 0 && /^<(!doctype|html|head|body|\?xml)/i.test(opening.text.trimStart())) {
      throw new ProviderError(
        `the provider sent an HTML page, not a ${prepared.dialect} reply; check the route's base_url in config.json; nothing was saved`,
        { status, kind: 'malformed' },
      );
    }
    throw new ProviderError('the reply ended before the provider said it was complete; nothing was saved', {
      status,
      kind: 'incomplete',
    });
  }
  return { reply: assembler.reply(), finishReason: assembler.finishReason };
}

/** Passes the body on, keeping its first bytes (as text) in `opening`, to tell what a reply with no event was. */
async function* sniffed(body: AsyncIterable<Uint8Array>, opening: { text: string }): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    if (opening.text.length < 64) opening.text += Buffer.from(chunk).subarray(0, 64).toString('latin1');
    yield chunk;
  }
}

/** The response body, failing once more than `limit` bytes arrived: a reply that large is not cut to fit. */
async function* capped(body: AsyncIterable<Uint8Array>, limit: number): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > limit) {
      throw new ProviderError(`the reply is larger than ${limit} bytes (config max_reply_bytes); nothing was saved`, {
        kind: 'too-large',
      });
    }
    yield chunk;
  }
}

async function readErrorBody(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      if (size < MAX_ERROR_BODY_BYTES) chunks.push(chunk.subarray(0, MAX_ERROR_BODY_BYTES - size));
      size += chunk.byteLength;
    }
  } catch {
    // A broken error body still leaves the status to report.
  }
  return Buffer.concat(chunks).toString('utf8');
}

function connectionFailure(error: unknown): ProviderError {
  if (error instanceof TimeoutFired) return timeoutFailure(error.phase, error.limitMs);
  const code = errorCode(error);
  return new ProviderError(
    `could not reach the endpoint of this route${code ? ` (${code})` : ''}; check base_url and your network`,
    { kind: 'network' },
  );
}

const TIMEOUT_WORDS: Readonly<Record<TimeoutPhase, string>> = {
  connect: 'no connection to the endpoint opened within',
  'first-byte': 'the provider sent no response within',
  idle: 'the reply stalled: no event arrived within',
  total: 'the exchange did not finish within',
};

const TIMEOUT_KEYS: Readonly<Record<TimeoutPhase, string>> = {
  connect: 'connect_ms',
  'first-byte': 'first_byte_ms',
  idle: 'idle_ms',
  total: 'total_ms',
};

function timeoutFailure(phase: TimeoutPhase, limitMs: number): ProviderError {
  return new ProviderError(
    `${TIMEOUT_WORDS[phase]} ${limitMs} ms (${phase} timeout, config timeouts.${TIMEOUT_KEYS[phase]}); nothing was saved`,
    { kind: 'timeout', timeout: phase },
  );
}

function httpFailure(status: number, detail: ProviderErrorDetail, apiKeyEnv: string | null): ProviderError {
  return new ProviderError(
    `the provider answered HTTP ${status}${describeDetail(detail)}${hintFor(status, apiKeyEnv)}`,
    {
      status,
      kind: 'http',
      detail,
    },
  );
}

/** The provider's own words, as `: type (code): message`, already scrubbed. */
function describeDetail(detail: ProviderErrorDetail): string {
  const label = [detail.type, detail.code === null ? null : `(${detail.code})`]
    .filter((part) => part !== null)
    .join(' ');
  const words = [label, detail.message].filter((part) => part !== null && part !== '').join(': ');
  return words === '' ? '' : `: ${words}`;
}

function hintFor(status: number, apiKeyEnv: string | null): string {
  if (status === 401 || status === 403) {
    return apiKeyEnv === null
      ? '; the endpoint refused the request without a key: this route sends none'
      : `; the API key was refused: check the key in ${safeEnvVarName(apiKeyEnv)}`;
  }
  if (status === 404) return '; check base_url and the model id';
  if (status === 429) return '; rate limited: wait and try again';
  if (status >= 500) return '; the provider failed: try again later';
  return '';
}

function errorCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code) ? code : null;
}
