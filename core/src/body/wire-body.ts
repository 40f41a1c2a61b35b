import type { JsonValue } from '../canonical/canonical-json.js';
import type { ConversationMessage } from '../prompt/conversation.js';
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
  /** Whether the user asked for this tier, `auto` picked it from the prompt, or the route's default supplied it. */
  readonly origin: 'explicit' | 'auto' | 'route-default';
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
  /** The output cap, written at the row's cap field; when the row sends none, the reservation (unused). */
  readonly outputCapTokens: number;
  readonly reasoning: ReasoningPlan | null;
}

/** Where a dialect keeps its reasoning controls, so the core reads them without knowing key names. */
export interface ReasoningLayout {
  /**
   * Keys that can carry a reasoning control in this dialect, in report order: top-level keys, or the
   * dotted path of the object that holds the control when it sits inside a wider settings object.
   */
  readonly controlKeys: readonly string[];
  /** Of those, keys that only ask for reasoning output to be disclosed and do not make the model reason. */
  readonly disclosureKeys: readonly string[];
  /** Dotted paths an effort label may sit at; the first present string wins. */
  readonly effortPaths: readonly string[];
  /** Dotted paths a thinking budget may sit at; the first present number wins. */
  readonly budgetPaths: readonly string[];
}

/** A body's tool choice as its dialect reads it. */
export interface ToolChoiceFacts {
  /** The choice's kind as the wire names it (`auto`, `required`, `function`, `tool`, ...). */
  readonly kind: string;
  /** The tool a named choice forces, or null. */
  readonly name: string | null;
}

/**
 * What the dialect that wrote a body says about it: where each region sits, so the core can account
 * bytes, and the wire facts the manifest reports, so the core never reads a wire key by name.
 */
export interface BodyLayout {
  /** Values that together form the system region (system items, a `system` field, `instructions`, ...). */
  readonly systemValues: readonly JsonValue[];
  /** Top-level key of the turn items array, or null when the body has none. */
  readonly itemsKey: string | null;
  /** Indexes of items that belong to the system region rather than to the conversation. */
  readonly systemItemIndexes: readonly number[];
  /** Indexes of items that carry tool results. */
  readonly toolResultItemIndexes: readonly number[];
  /** Attachment parts (images, files) found inside items. */
  readonly attachmentParts: readonly JsonValue[];
  /** Top-level key of the tool declarations, or null when the body declares none. */
  readonly toolsKey: string | null;
  /** The tool choice the body carries, or null when it carries none. */
  readonly toolChoice: ToolChoiceFacts | null;
  /** Whether the body's own field asks for a streamed reply; null when the body has no such field. */
  readonly streamField: boolean | null;
  readonly reasoning: ReasoningLayout;
  /** The prompt-cache breakpoints the body carries, by region in body order; absent means none. */
  readonly cacheBreakpoints?: readonly CacheBreakpointRegion[];
}

/** The region of a body a prompt-cache breakpoint sits in. */
export type CacheBreakpointRegion = 'tools' | 'system' | 'messages';
