import type { PluginApi } from '@cw/core';
import { buildResponsesBody } from './responses-build-body.js';
import { decodeResponsesReply, responsesTextDelta } from './responses-decode-reply.js';
import { describeResponsesBody } from './responses-describe-body.js';

const DIALECT = 'openai-responses';

/** Registers the OpenAI Responses body builder, describer and reply decoder. */
export function register(api: PluginApi): void {
  api.hooks.buildBody.for(DIALECT).tap({ name: api.plugin, stage: 0 }, buildResponsesBody);
  api.hooks.describeBody.for(DIALECT).tap(api.plugin, describeResponsesBody);
  api.hooks.readTextDelta.for(DIALECT).tap(api.plugin, responsesTextDelta);
  api.hooks.decodeReply.for(DIALECT).tap(api.plugin, decodeResponsesReply);
}
