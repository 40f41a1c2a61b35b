/**
 * Whether JSON data `value` writes the same text as `kept` (a sealed copy of an earlier value): the
 * same members in the same order with the same values. Strings are compared by value, which costs
 * nothing when both are the same string, as they are when a message is sent again.
 */
export function sameJson(value: unknown, kept: unknown): boolean {
  if (value === kept) return true;
  if (typeof value !== 'object' || typeof kept !== 'object' || value === null || kept === null) return false;
  if (Array.isArray(value)) {
    if (!Array.isArray(kept) || value.length !== kept.length || Object.getPrototypeOf(value) !== Array.prototype)
      return false;
    for (let index = 0; index < value.length; index += 1) if (!sameJson(value[index], kept[index])) return false;
    return true;
  }
  if (Array.isArray(kept)) return false;
  // A class instance can list the same keys as a plain object and still not be JSON data.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const keptKeys = Object.keys(kept);
  let index = 0;
  // for-in walks own keys in Object.keys order here (a plain object, nothing enumerable inherited)
  // without building a list of them.
  for (const key in value) {
    if (key !== keptKeys[index]) return false;
    index += 1;
    if (!sameJson((value as Record<string, unknown>)[key], (kept as Record<string, unknown>)[key])) return false;
  }
  return index === keptKeys.length;
}
