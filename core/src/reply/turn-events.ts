import type { JsonValue } from '../canonical/canonical-json.js';

/** One unit of a reply as the transport read it off the wire, before the dialect gives it meaning. */
export type WireEvent =
  /** One server-sent event (or one line of a newline-delimited JSON stream): its event name, if any, and its JSON data. */
  | { readonly kind: 'event'; readonly name: string | null; readonly data: JsonValue }
  /** The `data: [DONE]` sentinel some streams end with. */
  | { readonly kind: 'done' }
  /** A whole JSON reply, as the blocking entry point receives it. */
  | { readonly kind: 'body'; readonly body: JsonValue };

/** Token usage as the provider reported it; a later usage event replaces an earlier one. */
export interface TurnUsage {
  /** Every input token of the request, cached or not. */
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** Of `input_tokens`, those read from the provider's prompt cache, when the provider reports them. */
  readonly cache_read_tokens?: number;
  /** Of `input_tokens`, those written to the provider's prompt cache, when the provider reports them. */
  readonly cache_write_tokens?: number;
}

/** What a dialect's decoder makes of the wire: typed turn events, the same for every dialect. */
export type TurnEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  /**
   * The reply's whole text, replacing what the deltas built: for a dialect whose closing events
   * restate the text and are the authority when the two disagree (docs/wire-conformance.md).
   */
  | { readonly type: 'text-replace'; readonly text: string }
  | { readonly type: 'reasoning-delta'; readonly text: string }
  /**
   * Reasoning state the provider needs back on later requests (a signed thinking block, an encrypted
   * reasoning item, the reasoning text some APIs require within a tool loop). Opaque to the core: it
   * is stored with the reply and handed back to the same dialect's buildBody.
   */
  | { readonly type: 'replay-item'; readonly item: JsonValue }
  /** A tool call opens; `index` identifies it in later events of the same reply. */
  | { readonly type: 'tool-call-start'; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: 'tool-call-delta'; readonly index: number; readonly argumentsDelta: string }
  | { readonly type: 'tool-call-end'; readonly index: number }
  /** The usage so far, as totals: the decoder folds cumulative or split reports into one figure. */
  | { readonly type: 'usage'; readonly usage: TurnUsage }
  /** The dialect's terminal event: the reply is complete. `reason` is the provider's own finish label. */
  | { readonly type: 'finish'; readonly reason: string }
  /** The provider reported an error inside the reply; the raw message is redacted before it is shown. */
  | { readonly type: 'provider-error'; readonly code: string | null; readonly message: string }
  /**
   * The wire event at `position` (1-based, in arrival order) has none of the dialect's event shapes:
   * the reply is malformed and fails whatever follows. Only the position is kept, never the content.
   */
  | { readonly type: 'malformed-event'; readonly position: number };

/**
 * An incremental reply decoder: the transport pushes wire events in order and calls `end` once when
 * the wire ends, so streamed text, the final reply and usage all come from one pass.
 */
export interface ReplyDecoder {
  /** The turn events one wire event carries, often none. */
  push(event: WireEvent): readonly TurnEvent[];
  /** Events held back until the wire ends (tool calls still open, for example). */
  end(): readonly TurnEvent[];
}
