import { redactSecrets } from '../redaction/redact-secrets.js';
import { REDACTED } from '../redaction/safe-error-text.js';
import { looksSecretShaped } from '../redaction/secret-shapes.js';
import { terminalSafe } from '../redaction/terminal-safe.js';

/** What a provider said about a failed request, made safe to print. */
export interface ProviderErrorDetail {
  /** The provider's error type or status label (`invalid_request_error`, `NOT_FOUND`), or null. */
  readonly type: string | null;
  /** The provider's error code, or null. */
  readonly code: string | null;
  /** The provider's message: one terminal-safe line, secrets removed, at most 300 characters. */
  readonly message: string | null;
}

const MAX_MESSAGE_CHARS = 300;
const MAX_LABEL_CHARS = 64;
// A value that never appears on its own in an error message: shorter ones would blank ordinary words.
const MIN_SCRUBBED_LENGTH = 4;

/**
 * Reads the error body a provider answered with. The message is the provider's prose, shown so a
 * person can act on it ("model 'qwen' not found"), but never with the API key, the prompt or
 * anything shaped like a credential in it: a provider may echo any of them.
 */
export function providerErrorDetail(bodyText: string, scrub: readonly string[]): ProviderErrorDetail {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    parsed = undefined;
  }
  const root = asRecord(parsed);
  const nested = asRecord(root?.['error']);
  const source = nested ?? root;
  const rawMessage = firstString(
    source?.['message'],
    root?.['message'],
    root?.['detail'],
    typeof root?.['error'] === 'string' ? root['error'] : undefined,
  );
  const type = label(firstString(source?.['type'], source?.['status'], root?.['type']), scrub);
  const code = label(
    firstString(source?.['code'], typeof source?.['code'] === 'number' ? String(source['code']) : undefined),
    scrub,
  );
  return { type, code, message: rawMessage === null ? null : cleanMessage(rawMessage, scrub) };
}

function cleanMessage(raw: string, scrub: readonly string[]): string {
  let text = raw;
  for (const secret of scrub) {
    if (secret.length >= MIN_SCRUBBED_LENGTH) text = text.split(secret).join(REDACTED);
  }
  text = redactSecrets(text)
    .split(/(\s+)/)
    .map((word) => (looksSecretShaped(word) ? REDACTED : word))
    .join('');
  text = terminalSafe(text).replace(/\s+/g, ' ').trim();
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 1)}\u2026` : text;
}

function label(value: string | null, scrub: readonly string[]): string | null {
  if (value === null) return null;
  const text = cleanMessage(value, scrub);
  return /^[A-Za-z0-9_.:-]{1,64}$/.test(text) ? text.slice(0, MAX_LABEL_CHARS) : null;
}

function firstString(...values: unknown[]): string | null {
  for (const value of values) if (typeof value === 'string' && value.trim() !== '') return value;
  return null;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
