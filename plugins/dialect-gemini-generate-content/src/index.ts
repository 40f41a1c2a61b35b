import type { PluginApi } from '@cw/core/plugin';
import { buildGeminiBody } from './gemini-build-body.js';
import { describeGeminiBody } from './gemini-describe-body.js';
import { createGeminiDecoder } from './gemini-reply-decoder.js';

/** The dialect id rows name: Gemini's native `generateContent` / `streamGenerateContent` wire. */
export const GEMINI_DIALECT = 'gemini-generate-content';

/** Registers the Gemini generateContent dialect: body builder, describer and reply decoder. */
export function register(api: PluginApi): void {
  api.addDialect({
    id: GEMINI_DIALECT,
    buildBody: buildGeminiBody,
    describeBody: describeGeminiBody,
    createDecoder: createGeminiDecoder,
  });
}
