import type { TimeoutPhase } from './open-post.js';
import type { ProviderErrorDetail } from './provider-error-text.js';

/**
 * How a provider exchange failed: no connection, one of cw's timeouts, a redirect cw will not
 * follow, an HTTP error status, a reply the dialect never finished, an error the provider reported
 * inside the reply, a reply cw cannot read, or one larger than the configured cap.
 */
export type ProviderErrorKind =
  | 'network'
  | 'timeout'
  | 'redirect'
  | 'http'
  | 'incomplete'
  | 'provider-error'
  | 'malformed'
  | 'too-large'
  | 'interrupted';

/**
 * The provider exchange failed and nothing was saved. The message is cw's own words plus, where the
 * provider said something, its error text already scrubbed of the key, the prompt and credentials.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly exitCode = 1;
  /** The printed form: the message is composed only of cw's words and scrubbed provider text. */
  readonly safeMessage: string;
  readonly status: number | null;
  readonly kind: ProviderErrorKind;
  /** What the provider said, when it said anything readable. */
  readonly detail: ProviderErrorDetail | null;
  /** Which timeout fired, for kind `timeout`. */
  readonly timeout: TimeoutPhase | null;
  constructor(
    message: string,
    options: {
      status?: number | null;
      kind: ProviderErrorKind;
      detail?: ProviderErrorDetail | null;
      timeout?: TimeoutPhase | null;
    },
  ) {
    super(message);
    this.safeMessage = message;
    this.status = options.status ?? null;
    this.kind = options.kind;
    this.detail = options.detail ?? null;
    this.timeout = options.timeout ?? null;
  }
}
