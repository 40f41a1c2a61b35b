// A sealed value is a deep copy of plain JSON data that the core froze itself, so nothing can change it
// after it was sealed: what is derived from it (its sorted view, its text, a catalog line) can be kept by
// identity for the life of the process (docs/performance.md, "Work done once per process").

const sealed = new WeakSet<object>();

/**
 * A frozen deep copy of `value` whose objects and arrays are all known to this module as sealed; the
 * value itself when it is already sealed. Returns undefined for anything that is not plain JSON data
 * (class instances, accessors, functions, symbols, cycles): such a value is never treated as sealed.
 */
export function sealJson<Value>(value: Value): Value | undefined {
  try {
    return copy(value, 0) as Value;
  } catch (signal) {
    if (signal === NOT_PLAIN) return undefined;
    throw signal;
  }
}

/** Whether `value` is an object or array sealJson made, which nothing can have changed since. */
export function isSealed(value: unknown): boolean {
  return typeof value === 'object' && value !== null && sealed.has(value);
}

const NOT_PLAIN = Symbol('not plain JSON');
// Deeper than any schema or row cw handles; a cycle reaches it and is refused.
const MAX_DEPTH = 256;

function copy(value: unknown, depth: number): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      throw NOT_PLAIN;
  }
  if (sealed.has(value)) return value;
  if (depth > MAX_DEPTH) throw NOT_PLAIN;
  let result: object;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) throw NOT_PLAIN;
    const items: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index += 1) {
      if (!Object.hasOwn(value, index)) throw NOT_PLAIN;
      items[index] = copy(value[index], depth + 1);
    }
    result = items;
  } else {
    const prototype = Object.getPrototypeOf(value);
    if ((prototype !== Object.prototype && prototype !== null) || Object.getOwnPropertySymbols(value).length > 0)
      throw NOT_PLAIN;
    const object: Record<string, unknown> = prototype === null ? Object.create(null) : {};
    const descriptors = Object.getOwnPropertyDescriptors(value);
    for (const key of Object.keys(descriptors)) {
      const descriptor = descriptors[key] as PropertyDescriptor;
      if (!descriptor.enumerable || !('value' in descriptor)) throw NOT_PLAIN;
      const value = copy(descriptor.value, depth + 1);
      // `__proto__` as an own key cannot be set by assignment; define it as the original holds it.
      // Every other key is assigned, which keeps the copy's properties in V8's fast layout.
      if (key === '__proto__')
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      else object[key] = value;
    }
    result = object;
  }
  Object.freeze(result);
  sealed.add(result);
  return result;
}

/**
 * Seals a value built from sealed parts (a sorted view of a sealed value): it is frozen and known as
 * sealed when every member is a primitive or sealed itself; otherwise it is returned as it is.
 */
export function sealDerived<Value>(value: Value): Value {
  if (typeof value !== 'object' || value === null || sealed.has(value)) return value;
  for (const member of Object.values(value)) {
    if (typeof member === 'object' && member !== null && !sealed.has(member)) return value;
    if (typeof member === 'function' || typeof member === 'symbol' || member === undefined) return value;
  }
  Object.freeze(value);
  sealed.add(value);
  return value;
}
