import stringify from 'json-stable-stringify';

/** A JSON value as it comes from JSON.parse: the only input canonicalization accepts. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Thrown for a value RFC 8785 cannot represent; the message names the JSON path, never the value. */
export class CanonicalJsonError extends Error {
  override readonly name = 'CanonicalJsonError';
}

/**
 * RFC 8785 (JCS) canonical form. json-stable-stringify already sorts keys by UTF-16 code units and
 * prints numbers the ECMAScript way, which is what JCS asks for; it silently turns what JCS forbids
 * into something else (NaN -> null, lone surrogates escaped), so we reject those first.
 */
export function canonicalJson(value: unknown): string {
  assertJcsRepresentable(value, '$', new Set());
  const text = stringify(value);
  if (text === undefined) throw new CanonicalJsonError('canonical JSON: the value at $ is not JSON');
  return text;
}

/** UTF-8 length of the canonical form: the unit every manifest byte count is in. */
export function canonicalJsonBytes(value: unknown): number {
  return Buffer.byteLength(canonicalJson(value), 'utf8');
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
