import type { PluginApi } from '@cw/core/plugin';
import { buildAnthropicBody } from './anthropic-build-body.js';
import { describeAnthropicBody } from './anthropic-describe-body.js';
import { createAnthropicDecoder } from './anthropic-reply-decoder.js';

/** Registers the Anthropic Messages dialect: body builder, describer and reply decoder. */
export function register(api: PluginApi): void {
  api.addDialect({
    id: 'anthropic-messages',
    buildBody: buildAnthropicBody,
    describeBody: describeAnthropicBody,
    createDecoder: createAnthropicDecoder,
  });
}
