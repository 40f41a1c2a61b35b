import { canonicalJsonBytes, type JsonValue } from '../canonical/canonical-json.js';
import type { BodyLayout, WireBody } from '../body/wire-body.js';

/** Canonical JSON byte counts per region of a body. system + tool_schemas + messages + framing == body. */
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

/**
 * Attributes canonical bytes to regions using the dialect's layout. The classes are sizes of selected
 * values, not slices of the buffer, which is why framing is defined as the remainder.
 */
export function byteClasses(body: WireBody, layout: BodyLayout): ByteClasses {
  const total = canonicalJsonBytes(body);
  const system = layout.systemValues.reduce<number>((sum, value) => sum + canonicalJsonBytes(value), 0);
  const toolSchemas = body['tools'] === undefined ? 0 : canonicalJsonBytes(body['tools']);
  const items = layout.itemsKey ? body[layout.itemsKey] : undefined;
  const itemList: readonly JsonValue[] = Array.isArray(items) ? items : [];
  const systemIndexes = new Set(layout.systemItemIndexes);
  // System items sit inside the items array on some dialects; their bytes count once, as system.
  const messages =
    items === undefined ? 0 : canonicalJsonBytes(items) - layout.systemItemIndexes.reduce((sum, index) => sum + canonicalJsonBytes(itemList[index] ?? null), 0);
  const toolResults = layout.toolResultItemIndexes.reduce((sum, index) => sum + canonicalJsonBytes(itemList[index] ?? null), 0);
  const attachments = layout.attachmentParts.reduce<number>((sum, part) => sum + canonicalJsonBytes(part), 0);
  return {
    body: total,
    system,
    toolSchemas,
    messages,
    messageCount: itemList.length - systemIndexes.size,
    toolResults,
    attachments,
    attachmentCount: layout.attachmentParts.length,
    framing: total - system - toolSchemas - messages,
  };
}
