// A value frozen all the way down, as plain data, cannot change: what is derived from it (its JSON
// text) can be kept by identity for the life of the process, as a sealed value's is
// (docs/performance.md, "Frozen answers"). Unlike a sealed value, it may be one the core did not copy:
// a row a plugin froze, a stored message.
const verified = new WeakSet<object>();
// Deeper than any row or message cw handles; a deeper value is simply not treated as frozen.
const MAX_DEPTH = 64;

/**
 * Whether `value` is an array or plain object that is frozen, holds only data properties (no
 * accessor, no symbol key), and whose members are primitives or such values themselves. Once true,
 * true for good: nothing can unfreeze it.
 */
export function isDeepFrozen(value: unknown): boolean {
  return typeof value === 'object' && value !== null && frozenObject(value, 0);
}

function frozenObject(value: object, depth: number): boolean {
  if (verified.has(value)) return true;
  if (depth > MAX_DEPTH || !Object.isFrozen(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  const array = Array.isArray(value);
  if (array ? prototype !== Array.prototype : prototype !== Object.prototype && prototype !== null) return false;
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(value))) {
    if (!('value' in descriptor)) return false;
    const member: unknown = descriptor.value;
    if (typeof member === 'object' && member !== null && !frozenObject(member, depth + 1)) return false;
    if (typeof member === 'function') return false;
  }
  verified.add(value);
  return true;
}
