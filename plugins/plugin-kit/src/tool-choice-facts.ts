import type { JsonValue, ToolChoiceFacts } from '@cw/core/plugin';
import { isJsonObject } from './json-guards.js';
import { valueAt } from './value-at.js';

/**
 * Reads a body's tool_choice value. A string is its own kind; an object names its kind in `type` and,
 * when it forces one tool, the tool's name at `namePath` (dialects nest it differently); anything
 * else is reported by its JSON type so a malformed choice still shows up.
 */
export function toolChoiceFacts(value: JsonValue | undefined, namePath: string): ToolChoiceFacts | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return { kind: value, name: null };
  if (!isJsonObject(value)) return { kind: typeof value, name: null };
  const type = value['type'];
  const name = valueAt(value, namePath);
  return { kind: typeof type === 'string' ? type : 'object', name: typeof name === 'string' ? name : null };
}
