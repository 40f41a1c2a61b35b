import type { AssistantReply, ReplyPayload } from '../body/wire-body.js';
import type { JsonValue } from '../canonical/canonical-json.js';
import type { CoreHooks } from '../hooks.js';
import type { PreparedOutboundRequest } from '../prepare-outbound-request.js';
import { safeEnvVarName } from '../redaction/safe-env-var-name.js';

/** The key's environment variable is named by the route but empty; nothing was sent. */
export class MissingApiKeyError extends Error {
  override readonly name = 'MissingApiKeyError';
  readonly exitCode = 1;
  /** The message with the variable name shown when it is an ordinary name: it is what the user must set. */
  readonly safeMessage: string;
  constructor(readonly variable: string) {
    super(`set the environment variable ${variable} to the API key of this route; nothing was sent`);
    this.safeMessage = `set the environment variable ${safeEnvVarName(variable)} to the API key of this route; nothing was sent`;
  }
}

/** The provider answered with an error or an unreadable reply. Carries no upstream text: it may echo secrets. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly exitCode = 1;
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** Reads the API key named by the route from the environment. */
export function apiKeyFor(prepared: PreparedOutboundRequest, env: NodeJS.ProcessEnv): string | null {
  if (prepared.apiKeyEnv === null) return null;
  const key = env[prepared.apiKeyEnv];
  if (key === undefined || key.trim() === '') throw new MissingApiKeyError(prepared.apiKeyEnv);
  return key;
}

/**
 * Sends `prepared.bodyText` — the exact bytes the preview hashed — and decodes the reply with the
 * dialect's decoder. An SSE reply is folded
 * into one reply by the dialect's decoder, so the core needs no knowledge of event shapes.
 */
export async function sendPreparedRequest(
  prepared: PreparedOutboundRequest,
  hooks: CoreHooks,
  options: {
    env: NodeJS.ProcessEnv;
    signal?: AbortSignal;
    /** Receives reply text as stream events arrive (only for streamed replies whose dialect reads deltas). */
    onText?: (delta: string) => void;
  },
): Promise<AssistantReply> {
  const key = apiKeyFor(prepared, options.env);
  const headers: Record<string, string> = { ...prepared.headers };
  if (key !== null) {
    if (prepared.route.row.auth.scheme === 'x-api-key') headers['x-api-key'] = key;
    else headers['authorization'] = `Bearer ${key}`;
  }
  let response: Response;
  try {
    response = await fetch(prepared.url, {
      method: 'POST',
      headers,
      body: prepared.bodyText,
      signal: options.signal ?? null,
    });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    throw new ProviderError(
      `could not reach the endpoint of this route${code ? ` (${code})` : ''}; check base_url and your network`,
      null,
    );
  }
  if (!response.ok) {
    // The upstream body may echo the key or the prompt: read it to free the socket, never print it.
    await response.text().catch(() => '');
    throw new ProviderError(
      `the provider answered HTTP ${response.status}${hintFor(response.status)}`,
      response.status,
    );
  }
  const contentType = response.headers.get('content-type') ?? '';
  const payload: ReplyPayload = contentType.includes('text/event-stream')
    ? { kind: 'sse', events: await readServerSentEvents(response, textSink(hooks, prepared.dialect, options.onText)) }
    : { kind: 'json', body: await readJson(response) };
  const reply = hooks.decodeReply.get(prepared.dialect)?.call(payload);
  if (!reply) throw new ProviderError(`no loaded plugin decodes ${prepared.dialect} replies`, response.status);
  return reply;
}

function hintFor(status: number): string {
  if (status === 401 || status === 403)
    return ': the API key was refused; check the key in the environment variable this route names';
  if (status === 404) return ': the endpoint or model was not found; check base_url and model';
  if (status === 429) return ': rate limited; wait and try again';
  if (status >= 500) return ': the provider failed; try again later';
  return ': the request was rejected';
}

async function readJson(response: Response): Promise<JsonValue> {
  try {
    return (await response.json()) as JsonValue;
  } catch {
    throw new ProviderError('the provider answered with a body that is not JSON', response.status);
  }
}

/** Parses an SSE stream into its JSON data events; `[DONE]` and comments are skipped. */
async function readServerSentEvents(response: Response, onEvent: (event: JsonValue) => void): Promise<JsonValue[]> {
  const events: JsonValue[] = [];
  if (!response.body) return events;
  const decoder = new TextDecoder();
  let buffer = '';
  const flush = (block: string): void => {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '' || data === '[DONE]') return;
    let event: JsonValue;
    try {
      event = JSON.parse(data) as JsonValue;
    } catch {
      throw new ProviderError('the provider sent a stream event that is not JSON', response.status);
    }
    events.push(event);
    onEvent(event);
  };
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let boundary = buffer.search(/\r?\n\r?\n/);
    while (boundary !== -1) {
      flush(buffer.slice(0, boundary));
      buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
      boundary = buffer.search(/\r?\n\r?\n/);
    }
  }
  buffer += decoder.decode();
  if (buffer.trim() !== '') flush(buffer);
  return events;
}

/** Feeds each event's text delta, read by the dialect's own tap, to the caller's sink. */
function textSink(
  hooks: CoreHooks,
  dialect: string,
  onText: ((delta: string) => void) | undefined,
): (event: JsonValue) => void {
  const reader = hooks.readTextDelta.get(dialect);
  if (!onText || !reader) return () => undefined;
  return (event) => {
    const delta = reader.call(event);
    if (delta) onText(delta);
  };
}
