import type { JsonValue } from '../canonical/canonical-json.js';
import type { ConversationMessage, ToolCall } from '../prompt/conversation.js';
import type { CapabilityRow, ReasoningTier } from '../route/capability-row.js';
import type { JsonSchema } from '../tools/tool-definition.js';

/** A wire body under construction: a JSON object whose key order is the order sent on the wire. */
export type WireBody = { [key: string]: JsonValue };

/** Which transport entry point a request is prepared for. */
export type Entrypoint = 'streaming' | 'blocking';

/** A tool after projection, ready for a dialect to serialize. */
export interface WireToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly strict: boolean;
}

/** tool_choice after reconciliation with the route; null means the body carries no tool_choice. */
export type ReconciledToolChoice = 'auto' | 'none' | 'required' | { readonly name: string } | null;

/** The reasoning control the core decided from the row and the user's selection. */
export interface ReasoningPlan {
  readonly tier: ReasoningTier;
  /** Whether the user asked for this tier or the route's default supplied it. */
  readonly origin: 'explicit' | 'route-default';
  readonly keyPath: string;
  readonly wireValue: string | number | boolean | null;
  readonly alsoSet: Readonly<Record<string, string | number | boolean | null>>;
}

/** Everything a buildBody tap may read. Taps must not read anything else (no env, no files). */
export interface BuildContext {
  readonly row: CapabilityRow;
  readonly wireModel: string;
  readonly entrypoint: Entrypoint;
  readonly system: string;
  readonly messages: readonly ConversationMessage[];
  readonly tools: readonly WireToolSpec[];
  readonly toolChoice: ReconciledToolChoice;
  readonly outputCapTokens: number;
  readonly reasoning: ReasoningPlan | null;
}

/** Where a dialect keeps each region of its body, so the core can account bytes without knowing the dialect. */
export interface BodyLayout {
  /** Values that together form the system region (Chat system items, `system`, or `instructions`). */
  readonly systemValues: readonly JsonValue[];
  /** Top-level key of the turn items array (`messages` or `input`), or null when the body has none. */
  readonly itemsKey: string | null;
  /** Indexes of items that belong to the system region rather than to the conversation. */
  readonly systemItemIndexes: readonly number[];
  /** Indexes of items that carry tool results. */
  readonly toolResultItemIndexes: readonly number[];
  /** Attachment parts (images, files) found inside items. */
  readonly attachmentParts: readonly JsonValue[];
  /** Top-level keys that can carry a reasoning control in this dialect, in report order. */
  readonly reasoningKeys: readonly string[];
}

/** The reply to one turn, decoded from the wire. */
export interface AssistantReply {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number } | null;
}

/** What the transport hands a reply decoder: parsed SSE data events, or one JSON body. */
export type ReplyPayload =
  | { readonly kind: 'sse'; readonly events: readonly JsonValue[] }
  | { readonly kind: 'json'; readonly body: JsonValue };
