import type { JsonValue } from '@cw/core/plugin';
import { arrayAt, isJsonObject, type JsonObject } from './json-guards.js';

/** The parts of the items' `content` arrays that `isAttachmentPart` accepts, in body order. */
export function collectAttachmentParts(
  items: readonly JsonValue[],
  isAttachmentPart: (part: JsonObject) => boolean,
): JsonValue[] {
  // Loops rather than flatMap and filter: no list per item, on every body described.
  const parts: JsonValue[] = [];
  for (const item of items) {
    for (const part of arrayAt(item, 'content')) if (isJsonObject(part) && isAttachmentPart(part)) parts.push(part);
  }
  return parts;
}
