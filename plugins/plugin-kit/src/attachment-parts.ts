import type { JsonValue } from '@cw/core/plugin';
import { arrayAt, isJsonObject, type JsonObject } from './json-guards.js';

/** The parts of the items' `content` arrays that `isAttachmentPart` accepts, in body order. */
export function collectAttachmentParts(
  items: readonly JsonValue[],
  isAttachmentPart: (part: JsonObject) => boolean,
): JsonValue[] {
  return items.flatMap((item) =>
    arrayAt(item, 'content').filter((part) => isJsonObject(part) && isAttachmentPart(part)),
  );
}
