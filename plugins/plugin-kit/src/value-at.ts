import type { JsonValue } from '@cw/core/plugin';
import { isJsonObject } from './json-guards.js';

/** The value at a dotted path of object keys (`reasoning.effort`), or undefined when any step is missing. */
export function valueAt(value: JsonValue | undefined, dottedPath: string): JsonValue | undefined {
  let node = value;
  for (const key of dottedPath.split('.')) {
    if (!isJsonObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * Writes `value` at a dotted path of a body under construction, creating the objects on the way
 * (`generationConfig.maxOutputTokens`). A non-object met on the way is replaced: the builder owns the body.
 */
export function setValueAt(body: { [key: string]: JsonValue }, dottedPath: string, value: JsonValue): void {
  // Most paths are one key (an output cap's field): written without splitting, as every body is built.
  if (!dottedPath.includes('.')) {
    body[dottedPath] = value;
    return;
  }
  const keys = dottedPath.split('.');
  const last = keys.pop() as string;
  let node = body;
  for (const key of keys) {
    const next = node[key];
    if (isJsonObject(next)) node = next;
    else {
      const created: { [key: string]: JsonValue } = {};
      node[key] = created;
      node = created;
    }
  }
  node[last] = value;
}
