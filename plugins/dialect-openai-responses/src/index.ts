import type { PluginApi } from '@cw/core/plugin';
import { buildResponsesBody } from './responses-build-body.js';
import { describeResponsesBody } from './responses-describe-body.js';
import { createResponsesDecoder } from './responses-reply-decoder.js';

/** Registers the OpenAI Responses dialect: body builder, describer and reply decoder. */
export function register(api: PluginApi): void {
  api.addDialect({
    id: 'openai-responses',
    buildBody: buildResponsesBody,
    describeBody: describeResponsesBody,
    createDecoder: createResponsesDecoder,
  });
}
