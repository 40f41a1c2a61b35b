import type { JsonValue } from '@cw/core/plugin';

/** A JSON object: the shape every wire body, event and item is read as. */
export type JsonObject = { [key: string]: JsonValue };

/** Whether a JSON value is an object (not null, not an array). */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object under `key` of `value`, or an empty object when either is missing or of another type. */
export function objectAt(value: JsonValue | undefined, key: string): JsonObject {
  const child = isJsonObject(value) ? value[key] : undefined;
  return isJsonObject(child) ? child : {};
}

/** The array under `key` of `value`, or an empty array when either is missing or of another type. */
export function arrayAt(value: JsonValue | undefined, key: string): JsonValue[] {
  const child = isJsonObject(value) ? value[key] : undefined;
  return Array.isArray(child) ? child : [];
}

/** The string under `key` of `value`, or '' when either is missing or of another type. */
export function stringAt(value: JsonValue | undefined, key: string): string {
  const child = isJsonObject(value) ? value[key] : undefined;
  return typeof child === 'string' ? child : '';
}

/** The number under `key` of `value`, or null when either is missing or of another type. */
export function numberAt(value: JsonValue | undefined, key: string): number | null {
  const child = isJsonObject(value) ? value[key] : undefined;
  return typeof child === 'number' ? child : null;
}

/** Whether a JSON value is an object whose `type` is one of `types`. */
export function hasType(value: JsonValue | undefined, types: readonly string[]): boolean {
  const type = isJsonObject(value) ? value['type'] : undefined;
  return typeof type === 'string' && types.includes(type);
}
