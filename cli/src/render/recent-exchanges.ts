// What a resumed session shows before its prompt: the last few exchanges, each prompt and the
// reply's text, shortened to a few lines and made terminal-safe, so the person sees where they left
// off (docs/cli.md, "Starting cw"). Tool calls and results are not shown: the reply's words are.

/** How many of the last exchanges a resumed session shows. */
export const RECENT_EXCHANGES = 3;
const REPLY_LINES = 4;

/** A stored message as far as this view reads it. */
export interface ExchangeMessage {
  readonly role: string;
  readonly content: string;
}

/** The lines that show the last `count` exchanges of `messages`; none for an empty session. */
export function recentExchanges(
  messages: readonly ExchangeMessage[],
  safe: (text: string) => string,
  columns: number | undefined,
  count = RECENT_EXCHANGES,
): string[] {
  const width = Math.max(20, (columns ?? 80) - 4);
  const starts = messages.flatMap((message, at) => (message.role === 'user' ? [at] : []));
  const shown = starts.slice(-count);
  if (shown.length === 0) return [];
  const lines = [`── the last ${shown.length === 1 ? 'exchange' : `${shown.length} exchanges`} of ${starts.length} ──`];
  for (const [index, start] of shown.entries()) {
    const end = shown[index + 1] ?? starts[starts.indexOf(start) + 1] ?? messages.length;
    lines.push(`› ${shorten(safe(flat(messages[start]?.content ?? '')), width)}`);
    const reply = messages
      .slice(start + 1, end)
      .filter((message) => message.role === 'assistant' && message.content.trim() !== '')
      .map((message) => message.content)
      .join('\n');
    const replyLines = reply
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line !== '');
    for (const line of replyLines.slice(0, REPLY_LINES)) lines.push(`  ${shorten(safe(line), width)}`);
    if (replyLines.length > REPLY_LINES) lines.push(`  … ${replyLines.length - REPLY_LINES} more lines`);
  }
  lines.push('──');
  return lines;
}

function flat(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

function shorten(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join('')}…`;
}
