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
