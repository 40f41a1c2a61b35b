import type { PluginApi } from '@cw/core';
import { buildAnthropicBody } from './anthropic-build-body.js';
import { decodeAnthropicReply, anthropicTextDelta } from './anthropic-decode-reply.js';
import { describeAnthropicBody } from './anthropic-describe-body.js';

const DIALECT = 'anthropic-messages';

/** Registers the Anthropic Messages body builder, describer and reply decoder. */
export function register(api: PluginApi): void {
  api.hooks.buildBody.for(DIALECT).tap({ name: api.plugin, stage: 0 }, buildAnthropicBody);
  api.hooks.describeBody.for(DIALECT).tap(api.plugin, describeAnthropicBody);
  api.hooks.readTextDelta.for(DIALECT).tap(api.plugin, anthropicTextDelta);
  api.hooks.decodeReply.for(DIALECT).tap(api.plugin, decodeAnthropicReply);
}
