/** A tool call the assistant made, in provider-neutral form. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as the model produced them: a JSON text. */
  readonly arguments: string;
}

/** One stored conversation message; dialect plugins turn these into wire items. */
export type ConversationMessage =
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly tool_calls?: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly name: string; readonly content: string };
