import type { ConversationMessage } from '../../prompt/conversation.js';

// A tool result is evidence, not the story: its head is enough for a summary to say what it showed.
const MAX_RESULT_CHARS = 4_000;

const INSTRUCTIONS =
  'Summarise the conversation in the transcript below. Your summary replaces these messages in the history, so keep what the rest of the work needs: the user’s goals and instructions, decisions made, what was done and found (files, commands, results), and what is still open. Be concise and factual. Write only the summary.';

/** The request that asks the route for a summary of `older`, the earliest `omitted` messages left out. */
export function compactionPrompt(older: readonly ConversationMessage[], omitted: number): string {
  const note = omitted > 0 ? `\n(The ${omitted} earliest messages are left out: they did not fit.)` : '';
  return `${INSTRUCTIONS}${note}\n\n<transcript>\n${older.map(transcriptEntry).join('\n\n')}\n</transcript>`;
}

/** The summary message that stands in for `count` earlier messages. */
export function summaryMessage(summary: string, count: number): Extract<ConversationMessage, { role: 'user' }> {
  return {
    role: 'user',
    content: `<conversation-summary messages="${count}">\nThe earlier part of this conversation, summarised:\n\n${summary}\n</conversation-summary>`,
    summary_of: count,
  };
}

// The history is given as text, not replayed as messages: a summary request then carries no tool
// calls, so no dialect's tool-pairing rule can refuse it, whatever the route.
function transcriptEntry(message: ConversationMessage): string {
  switch (message.role) {
    case 'user': {
      const images = message.images?.length ?? 0;
      const head = message.summary_of === undefined ? '[user]' : '[earlier summary]';
      return `${head}\n${message.content}${images > 0 ? `\n[${images} image(s) attached]` : ''}`;
    }
    case 'assistant': {
      const calls = (message.tool_calls ?? []).map((call) => `[assistant calls ${call.name}] ${call.arguments}`);
      return [`[assistant]\n${message.content}`, ...calls].join('\n');
    }
    case 'tool': {
      const text = message.content;
      const cut =
        text.length > MAX_RESULT_CHARS
          ? `${text.slice(0, MAX_RESULT_CHARS)}\n[${text.length - MAX_RESULT_CHARS} more characters left out]`
          : text;
      return `[result of ${message.name}]\n${cut}`;
    }
    default: {
      const never: never = message;
      return never;
    }
  }
}
