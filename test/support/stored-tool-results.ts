// What a session on disk holds of the tool loop, read back by tests that check what a call returned.
import { readFile } from 'node:fs/promises';
import { sessionFile } from './cw-fixture.js';

/** The stored tool results of the home's active session, by call id. */
export async function storedToolResults(home: string): Promise<Map<string, { status: string; content: string }>> {
  const text = await readFile(await sessionFile(home), 'utf8');
  const messages = (JSON.parse(text) as { messages: Record<string, unknown>[] }).messages;
  return new Map(
    messages
      .filter((message) => message['role'] === 'tool')
      .map((message) => [
        String(message['tool_call_id']),
        { status: String(message['status']), content: String(message['content']) },
      ]),
  );
}
