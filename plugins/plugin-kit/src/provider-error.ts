import type { JsonValue, TurnEvent } from '@cw/core/plugin';
import { stringAt } from './json-guards.js';

// Most wires name the error class in `type`; some only give a `code`.
const CODE_KEYS = ['type', 'code'] as const;

/**
 * The provider-error event for an error object a provider sent inside its reply: the code is the
 * first non-empty string among `codeKeys`, the message is kept raw (the core redacts it).
 */
export function providerError(error: JsonValue | undefined, codeKeys: readonly string[] = CODE_KEYS): TurnEvent {
  const code = codeKeys.map((key) => stringAt(error, key)).find((value) => value !== '') ?? null;
  return { type: 'provider-error', code, message: stringAt(error, 'message') };
}
