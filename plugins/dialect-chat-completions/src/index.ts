import type { PluginApi } from '@cw/core';
import { buildChatBody } from './chat-build-body.js';
import { decodeChatReply, chatTextDelta } from './chat-decode-reply.js';
import { describeChatBody } from './chat-describe-body.js';

const DIALECT = 'chat-completions';

/** Registers the OpenAI Chat Completions body builder, describer and reply decoder. */
export function register(api: PluginApi): void {
  api.hooks.buildBody.for(DIALECT).tap({ name: api.plugin, stage: 0 }, buildChatBody);
  api.hooks.describeBody.for(DIALECT).tap(api.plugin, describeChatBody);
  api.hooks.readTextDelta.for(DIALECT).tap(api.plugin, chatTextDelta);
  api.hooks.decodeReply.for(DIALECT).tap(api.plugin, decodeChatReply);
}
