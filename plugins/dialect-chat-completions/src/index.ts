import type { PluginApi } from '@cw/core/plugin';
import { buildChatBody } from './chat-build-body.js';
import { describeChatBody } from './chat-describe-body.js';
import { createChatDecoder } from './chat-reply-decoder.js';

/** Registers the OpenAI Chat Completions dialect: body builder, describer and reply decoder. */
export function register(api: PluginApi): void {
  api.addDialect({
    id: 'chat-completions',
    buildBody: buildChatBody,
    describeBody: describeChatBody,
    createDecoder: createChatDecoder,
  });
}
