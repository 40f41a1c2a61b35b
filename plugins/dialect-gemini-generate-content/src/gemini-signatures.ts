import type { JsonValue } from '@cw/core/plugin';
import { isJsonObject, numberAt, stringAt } from '@cw/plugin-kit';

/**
 * Where a thought signature rode in a reply: on the model's text (or an empty text part that only
 * carries it), or on its `index`-th function call. Stored as the reply's replay items, so the next
 * request of the tool loop puts each signature back on the part it came with, as the API requires.
 */
export type SignatureItem =
  | { readonly on: 'text'; readonly thoughtSignature: string }
  | { readonly on: 'call'; readonly index: number; readonly thoughtSignature: string };

/** A replay item for a signature on the model's text. */
export function textSignature(signature: string): JsonValue {
  return { on: 'text', thoughtSignature: signature };
}

/** A replay item for a signature on the reply's `index`-th function call. */
export function callSignature(index: number, signature: string): JsonValue {
  return { on: 'call', index, thoughtSignature: signature };
}

/** The signature items among an assistant message's replay items; anything else is not this dialect's. */
export function signatureItems(items: readonly JsonValue[]): SignatureItem[] {
  const found: SignatureItem[] = [];
  for (const item of items) {
    if (!isJsonObject(item)) continue;
    const thoughtSignature = stringAt(item, 'thoughtSignature');
    if (thoughtSignature === '') continue;
    const index = numberAt(item, 'index');
    if (item['on'] === 'text') found.push({ on: 'text', thoughtSignature });
    else if (item['on'] === 'call' && index !== null && Number.isInteger(index) && index >= 0) {
      found.push({ on: 'call', index, thoughtSignature });
    }
  }
  return found;
}
