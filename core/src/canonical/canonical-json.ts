import { isSealed, sealDerived } from './sealed-json.js';

/** A JSON value as it comes from JSON.parse: the only input canonicalization accepts. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Thrown for a value RFC 8785 cannot represent; the message names the JSON path, never the value. */
export class CanonicalJsonError extends Error {
  override readonly name = 'CanonicalJsonError';
}

/**
 * RFC 8785 (JCS) canonical form. On values JCS can represent, `JSON.stringify` already writes what
 * JCS asks for (ECMAScript number form, the same string escapes); only key order differs. So one
 * walk checks representability and returns the value with every object's keys sorted by UTF-16 code
 * units — the value itself wherever they already are — and native stringify writes it
 * (docs/performance.md). Objects whose keys JavaScript would not enumerate in that order (array-index
 * keys, `__proto__`) go through a plain recursive writer instead.
 */
export function canonicalJson(value: unknown): string {
  const view = canonicalView(value);
  return view === ORDER_NOT_NATIVE ? writeCanonical(value as JsonValue) : JSON.stringify(view);
}

/**
 * The value with every object's keys in canonical order, sharing every string and every part that
 * already was: `JSON.stringify` of it is the canonical text. Returns ORDER_NOT_NATIVE for a value
 * that holds an object JavaScript would enumerate out of that order (canonicalJson then writes it
 * the slow way). Throws CanonicalJsonError for a value JCS cannot represent.
 */
export function canonicalView(value: unknown): unknown {
  try {
    return sortedView(value, 0, []);
  } catch (signal) {
    if (signal === NOT_REPRESENTABLE) {
      // Walk again, slowly, for the error that names the path.
      assertJcsRepresentable(value, '$', new Set());
      throw new CanonicalJsonError('canonical JSON: the value at $ is not JSON');
    }
    if (signal !== ORDER_NOT_NATIVE) throw signal;
    assertJcsRepresentable(value, '$', new Set());
    return ORDER_NOT_NATIVE;
  }
}

/** UTF-8 length of the canonical form: the unit every manifest byte count is in. */
export function canonicalJsonBytes(value: unknown): number {
  return Buffer.byteLength(canonicalJson(value), 'utf8');
}

// Thrown through the fast walk (never outside this module): the value is not JSON, or an object's
// keys cannot be laid out in canonical order for native stringify.
const NOT_REPRESENTABLE = Symbol('not representable');
/** What canonicalView returns for a value native stringify cannot write in canonical order. */
export const ORDER_NOT_NATIVE: unique symbol = Symbol('order not native');
// Below this depth a cycle cannot have closed yet worth looking for; past it, every object is checked
// against the path, so a cycle is an error and not a stack overflow.
const CYCLE_CHECK_DEPTH = 64;
const INDEX_KEY = /^(?:0|[1-9][0-9]{0,9})$/;

function sortedView(value: unknown, depth: number, path: object[]): unknown {
  switch (typeof value) {
    case 'string':
      if (!value.isWellFormed()) throw NOT_REPRESENTABLE;
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw NOT_REPRESENTABLE;
      return value;
    case 'boolean':
      return value;
    case 'object': {
      if (value === null) return null;
      if (isSealed(value)) return sealedView(value, depth, path);
      if (depth >= CYCLE_CHECK_DEPTH && onPath(path, depth, value)) throw NOT_REPRESENTABLE;
      path[depth] = value;
      if (Array.isArray(value)) return sortedArray(value, depth, path);
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) throw NOT_REPRESENTABLE;
      return sortedObject(value as Record<string, unknown>, depth, path);
    }
    default:
      throw NOT_REPRESENTABLE;
  }
}

// The sorted views of sealed values, which cannot change: a cached tool schema is sorted once per
// process, not on every request that carries it (docs/performance.md).
const sealedViews = new WeakMap<object, unknown>();

function sealedView(value: object, depth: number, path: object[]): unknown {
  let view = sealedViews.get(value);
  if (view === undefined) {
    path[depth] = value;
    // A view made of sealed parts is sealed too, so its text is kept (canonical/json-text.ts).
    view = sealDerived(
      Array.isArray(value)
        ? sortedArray(value, depth, path)
        : sortedObject(value as Record<string, unknown>, depth, path),
    );
    sealedViews.set(value, view);
  }
  return view;
}

/** Whether `value` is one of the `depth` objects above it (entries past `depth` are stale siblings). */
function onPath(path: readonly object[], depth: number, value: object): boolean {
  for (let index = 0; index < depth; index += 1) if (path[index] === value) return true;
  return false;
}

function sortedArray(array: readonly unknown[], depth: number, path: object[]): unknown[] {
  let copy: unknown[] | null = null;
  for (let index = 0; index < array.length; index += 1) {
    const child = array[index];
    // A hole reads as undefined: both are not JSON.
    if (child === undefined) throw NOT_REPRESENTABLE;
    const view = sortedView(child, depth + 1, path);
    if (copy === null && view !== child) copy = array.slice(0, index);
    if (copy !== null) copy.push(view);
  }
  return copy ?? (array as unknown[]);
}

function sortedObject(object: Record<string, unknown>, depth: number, path: object[]): Record<string, unknown> {
  const keys = Object.keys(object);
  let inOrder = true;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    if (!key.isWellFormed()) throw NOT_REPRESENTABLE;
    const first = key.charCodeAt(0);
    if ((first >= 0x30 && first <= 0x39 && INDEX_KEY.test(key)) || key === '__proto__') throw ORDER_NOT_NATIVE;
    if (index > 0 && (keys[index - 1] as string) > key) inOrder = false;
  }
  if (!inOrder) keys.sort();
  let views: unknown[] | null = null;
  for (let index = 0; index < keys.length; index += 1) {
    const child = object[keys[index] as string];
    const view = sortedView(child, depth + 1, path);
    if (views === null && view !== child) views = keys.slice(0, index).map((key) => object[key]);
    if (views !== null) views.push(view);
  }
  if (inOrder && views === null) return object;
  const sorted: Record<string, unknown> = {};
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    sorted[key] = views === null ? object[key] : views[index];
  }
  return sorted;
}

/** The plain recursive writer, for objects native stringify cannot lay out in canonical order. */
function writeCanonical(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(writeCanonical).join(',')}]`;
  const parts = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${writeCanonical(value[key] as JsonValue)}`);
  return `{${parts.join(',')}}`;
}

/** `ancestors` holds the objects and arrays on the current path, so a cycle is an error, not a stack overflow. */
function assertJcsRepresentable(value: unknown, path: string, ancestors: Set<object>): void {
  switch (typeof value) {
    case 'string':
      if (!value.isWellFormed()) throw new CanonicalJsonError(`canonical JSON: lone surrogate in a string at ${path}`);
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(`canonical JSON: non-finite number at ${path}`);
      return;
    case 'boolean':
      return;
    case 'object':
      if (value === null) return;
      if (ancestors.has(value)) throw new CanonicalJsonError(`canonical JSON: cycle at ${path}`);
      if (Array.isArray(value)) {
        ancestors.add(value);
        for (let index = 0; index < value.length; index += 1) {
          if (!(index in value)) throw new CanonicalJsonError(`canonical JSON: sparse array at ${path}`);
          assertJcsRepresentable(value[index], `${path}[${index}]`, ancestors);
        }
        ancestors.delete(value);
        return;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
        throw new CanonicalJsonError(`canonical JSON: non-plain object at ${path}`);
      }
      ancestors.add(value);
      for (const [key, child] of Object.entries(value)) {
        if (!key.isWellFormed()) throw new CanonicalJsonError(`canonical JSON: lone surrogate in a key at ${path}`);
        assertJcsRepresentable(child, `${path}.<key>`, ancestors);
      }
      ancestors.delete(value);
      return;
    default:
      throw new CanonicalJsonError(`canonical JSON: ${typeof value} is not JSON at ${path}`);
  }
}
