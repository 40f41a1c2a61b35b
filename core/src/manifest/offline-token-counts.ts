import { createRequire } from 'node:module';
import { canonicalJson, type JsonValue } from '../canonical/canonical-json.js';
import type { OfflineTokenizer } from '../route/capability-row.js';
import { safeErrorText } from '../redaction/index.js';
import type { ClassValues } from '../body/byte-classes.js';
import type { TokenizerCounts } from './manifest-schema.js';
import { unavailable } from '../plan/unavailable-reason.js';

/** The part of a gpt-tokenizer encoding module cw uses. */
interface Encoder {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

// Loaded on first use, synchronously (the preview seam is synchronous), from gpt-tokenizer's CommonJS
// build: an encoder's rank table costs 0.4-0.6 s to load, so a route without a tokenizer (the
// default) never pays for one, and a route with one pays once per process.
const requireModule = createRequire(import.meta.url);
const MODULES: Readonly<Record<OfflineTokenizer, string>> = {
  o200k_base: 'gpt-tokenizer/encoding/o200k_base',
  cl100k_base: 'gpt-tokenizer/encoding/cl100k_base',
};
const loaded = new Map<OfflineTokenizer, Encoder>();

// Text that happens to spell a special token (`<|endoftext|>`) is counted as text, not rejected.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Counts the canonical JSON text of each byte class with the route's offline tokenizer. These are
 * counts of JSON text, not of the prompt the provider renders from it, and never provider-authoritative.
 */
export function offlineTokenCounts(
  encoding: OfflineTokenizer | null,
  values: ClassValues,
  /** The canonical body text, read only when there is a tokenizer to count it with. */
  bodyText: () => string,
): TokenizerCounts {
  if (encoding === null) return unavailable('no-offline-tokenizer-for-route');
  let encoder: Encoder;
  try {
    encoder = loadEncoder(encoding);
  } catch (error) {
    return unavailable('offline-tokenizer-failed', safeErrorText((error as Error).message));
  }
  const count = (text: string): number => (text === '' ? 0 : encoder.countTokens(text, AS_PLAIN_TEXT));
  const joined = (list: readonly JsonValue[]): string => list.map((value) => canonicalJson(value)).join('');
  return {
    exact: {
      basis: 'offline-tokenizer-count',
      encoding,
      whole_body: count(bodyText()),
      system: count(joined(values.system)),
      tool_schemas: values.tools === undefined ? 0 : count(canonicalJson(values.tools)),
      messages: count(joined(values.conversationItems)),
      tool_results: count(joined(values.toolResultItems)),
      attachments: count(joined(values.attachmentParts)),
    },
  };
}

function loadEncoder(encoding: OfflineTokenizer): Encoder {
  let encoder = loaded.get(encoding);
  if (encoder === undefined) {
    encoder = requireModule(MODULES[encoding]) as Encoder;
    loaded.set(encoding, encoder);
  }
  return encoder;
}
