import { canonicalJson } from './canonical-json.js';
import { sameJson } from './same-json.js';
import { sealJson } from './sealed-json.js';
import { sha256Hex } from './sha256.js';
import { SmallLru } from './small-lru.js';

// The same few texts are hashed on every request of a process: the base prompt, the system layers, the
// tool declarations. Looking a text up costs one pass over its characters, hashing it far more.
const MAX_CHARS = 1 << 16;
const digests = new SmallLru<string, string>(32);

/** sha256Hex of a text, answered from memory when the same text was hashed before in this process. */
export function rememberedSha256(text: string): string {
  if (text.length > MAX_CHARS) return sha256Hex(text);
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = sha256Hex(text);
    digests.set(text, digest);
  }
  return digest;
}

// The system items of a body are new objects on every request but hold the same text: their canonical
// text's digest and size are kept with sealed copies of them, and found again by comparing values, so
// the text is neither written nor hashed again.
const KEPT_VALUE_LISTS = 4;
interface KeptValueList {
  readonly kept: readonly unknown[];
  readonly digest: string;
  readonly bytes: number;
}
let keptValueLists: readonly KeptValueList[] = [];

/** rememberedSha256 of the values' canonical JSON texts joined, found by value when the same values were hashed before. */
export function rememberedCanonicalSha256(values: readonly unknown[]): string {
  return keptValueList(values).digest;
}

/** The UTF-8 bytes of the same text (the sum of each value's canonical size), found the same way. */
export function rememberedCanonicalBytes(values: readonly unknown[]): number {
  return values.length === 0 ? 0 : keptValueList(values).bytes;
}

function keptValueList(values: readonly unknown[]): KeptValueList {
  const known = keptValueLists.find((entry) => sameJson(values, entry.kept));
  if (known !== undefined) return known;
  const text = values.map((value) => canonicalJson(value)).join('');
  const digest = rememberedSha256(text);
  const bytes = Buffer.byteLength(text, 'utf8');
  const kept = sealJson([...values]);
  if (kept === undefined) return { kept: [], digest, bytes };
  const entry: KeptValueList = { kept, digest, bytes };
  keptValueLists = [entry, ...keptValueLists].slice(0, KEPT_VALUE_LISTS);
  return entry;
}
