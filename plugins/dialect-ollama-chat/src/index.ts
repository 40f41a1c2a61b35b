import type { PluginApi } from '@cw/core/plugin';
import { buildOllamaBody } from './ollama-build-body.js';
import { describeOllamaBody } from './ollama-describe-body.js';
import { createOllamaDecoder } from './ollama-reply-decoder.js';

/** The dialect id rows name: Ollama's native `/api/chat` wire. */
export const OLLAMA_DIALECT = 'ollama-chat';

/** Registers the Ollama /api/chat dialect: body builder, describer and reply decoder. */
export function register(api: PluginApi): void {
  api.addDialect({
    id: OLLAMA_DIALECT,
    buildBody: buildOllamaBody,
    describeBody: describeOllamaBody,
    createDecoder: createOllamaDecoder,
  });
}
