import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../prompt/conversation.js';
import { EFFECTS_UNKNOWN_RESULT, startedCallsOf, withUnknownResults } from './started-calls.js';

const homes: string[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
});

const history: ConversationMessage[] = [
  { role: 'user', content: 'pay' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      { id: 'a', name: 'shell', arguments: '{"command":"pay"}' },
      { id: 'b', name: 'shell', arguments: '{"command":"notify"}' },
    ],
  },
];

async function home(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'cw-started-'));
  homes.push(folder);
  return folder;
}

/** A journal left by a process that is gone: pid 2^22 + 1 is above Linux's pid limit. */
async function leftByDeadProcess(folder: string, after: number, started: string[]): Promise<void> {
  const file = join(folder, 'sessions', 'default.calls.json');
  await writeFile(file, JSON.stringify({ version: 1, owner: { pid: 4194305, startTime: '1' }, after, started }));
}

describe('withUnknownResults', () => {
  it('answers the calls a dead cw marked started, leaves the others unanswered', async () => {
    const folder = await home();
    const journal = await startedCallsOf(folder, 'default', history.length);
    await journal.mark([]);
    journal.close();
    await leftByDeadProcess(folder, history.length, ['a']);
    const read = await withUnknownResults(folder, 'default', history);
    expect(read.slice(history.length)).toEqual([
      { role: 'tool', tool_call_id: 'a', name: 'shell', content: EFFECTS_UNKNOWN_RESULT, status: 'unknown' },
    ]);
  });

  it('ignores a step still running, a journal of another length, and a session that moved on', async () => {
    const folder = await home();
    const journal = await startedCallsOf(folder, 'default', history.length);
    await journal.mark(['a', 'b']);
    expect(JSON.parse(await readFile(join(folder, 'sessions', 'default.calls.json'), 'utf8')).started).toEqual([
      'a',
      'b',
    ]);
    expect(await withUnknownResults(folder, 'default', history)).toBe(history);
    // A step of this process whose results could not be saved answers for its calls once it ended.
    journal.close();
    expect((await withUnknownResults(folder, 'default', history)).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
    ]);
    await leftByDeadProcess(folder, history.length + 1, ['a']);
    expect(await withUnknownResults(folder, 'default', history)).toBe(history);
    await leftByDeadProcess(folder, history.length, ['a']);
    const answered = [...history, { role: 'tool', tool_call_id: 'a', name: 'shell', content: 'ok' } as const];
    expect(await withUnknownResults(folder, 'default', answered)).toBe(answered);
    await journal.clear();
    expect(await withUnknownResults(folder, 'default', history)).toBe(history);
  });
});
