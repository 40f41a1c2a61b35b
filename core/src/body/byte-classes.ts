import { canonicalBody, type CanonicalBody } from '../canonical/canonical-body.js';
import { canonicalJsonBytes, type JsonValue } from '../canonical/canonical-json.js';
import { rememberedCanonicalBytes } from '../canonical/remembered-sha256.js';
import type { BodyLayout, WireBody } from './wire-body.js';

/** Canonical JSON byte counts per region of a body. system + toolSchemas + messages + framing == body. */
export interface ByteClasses {
  readonly body: number;
  readonly system: number;
  readonly toolSchemas: number;
  readonly messages: number;
  readonly messageCount: number;
  /** Subset of messages, for attribution only. */
  readonly toolResults: number;
  /** Subset of messages, for attribution only. */
  readonly attachments: number;
  readonly attachmentCount: number;
  /** The algebraic remainder: every other field, key names and punctuation. */
  readonly framing: number;
}

/** The JSON values each class is measured over, selected with the dialect's layout. */
export interface ClassValues {
  readonly system: readonly JsonValue[];
  /** The body's tool declarations (at the dialect's toolsKey), or undefined when the body has none. */
  readonly tools: JsonValue | undefined;
  /** The whole items array (system items included), or undefined when the body has none. */
  readonly items: JsonValue | undefined;
  /** The items that are conversation, not system, in order. */
  readonly conversationItems: readonly JsonValue[];
  readonly systemItems: readonly JsonValue[];
  readonly toolResultItems: readonly JsonValue[];
  readonly attachmentParts: readonly JsonValue[];
}

/** Selects the values behind each class; the same selection feeds byte counts and tokenizer counts. */
export function classValues(body: WireBody, layout: BodyLayout): ClassValues {
  const items = layout.itemsKey ? body[layout.itemsKey] : undefined;
  const itemList: readonly JsonValue[] = Array.isArray(items) ? items : [];
  const systemIndexes = new Set(layout.systemItemIndexes);
  return {
    system: layout.systemValues,
    tools: layout.toolsKey === null ? undefined : body[layout.toolsKey],
    items,
    conversationItems: itemList.filter((_item, index) => !systemIndexes.has(index)),
    systemItems: layout.systemItemIndexes.map((index) => itemList[index] ?? null),
    toolResultItems: layout.toolResultItemIndexes.map((index) => itemList[index] ?? null),
    attachmentParts: layout.attachmentParts,
  };
}

/**
 * Attributes canonical bytes to regions using the dialect's layout. The classes are sizes of selected
 * values, not slices of the buffer, which is why framing is defined as the remainder. The sizes of the
 * tool declarations, the items and each item come from the body's one canonical serialization.
 */
export function byteClasses(
  body: WireBody,
  layout: BodyLayout,
  canonical: CanonicalBody = canonicalBody(body),
): ByteClasses {
  const values = classValues(body, layout);
  const { itemsKey, toolsKey } = layout;
  const total = canonical.bytes;
  // The system values are the same text on every step: their size is found by value, not written again.
  const system = rememberedCanonicalBytes(values.system);
  const toolSchemas = values.tools === undefined || toolsKey === null ? 0 : (canonical.valueBytes(toolsKey) ?? 0);
  // System items sit inside the items array on some dialects; their bytes count once, as system.
  // The commas that separated them stay in messages, which keeps the identity exact.
  const messages =
    values.items === undefined || !itemsKey
      ? 0
      : (canonical.valueBytesByDifference(itemsKey) ?? 0) - sumItems(canonical, itemsKey, layout.systemItemIndexes);
  return {
    body: total,
    system,
    toolSchemas,
    messages,
    messageCount: values.conversationItems.length,
    toolResults: sumItems(canonical, itemsKey, layout.toolResultItemIndexes),
    attachments: sum(values.attachmentParts),
    attachmentCount: values.attachmentParts.length,
    framing: total - system - toolSchemas - messages,
  };
}

// Module-level rather than closures per body: a preview creates as few functions as it can (docs/performance.md).
function sum(list: readonly JsonValue[]): number {
  let total = 0;
  for (const value of list) total += canonicalJsonBytes(value);
  return total;
}

// classValues reads the items only at a non-empty key; an index past the end counts as null.
function sumItems(canonical: CanonicalBody, itemsKey: string | null, indexes: readonly number[]): number {
  return itemsKey ? canonical.itemBytes(itemsKey, indexes) : indexes.length * canonicalJsonBytes(null);
}
