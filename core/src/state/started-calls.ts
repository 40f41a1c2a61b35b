import { readFile, rm } from 'node:fs/promises';
import type { ConversationMessage } from '../prompt/conversation.js';
import { writeFileAtomic } from './atomic-write.js';
import { isAlive, processIdentity, type ProcessIdentity } from './process-identity.js';
import { sessionFileOf } from './session-location.js';

// A step's tool calls are marked started in a small journal beside the session before any of them
// runs, so a cw killed while they ran can tell the model the truth on the next send: a call that
// started may have had its effect (docs/agent-loop.md, "After a crash"). One atomic write per batch.

/** The result text a started call gets when cw stopped before saving its result. */
export const EFFECTS_UNKNOWN_RESULT =
  'Effects unknown: cw stopped while this call ran, before its result was saved. It may have done what it was asked; check before running it again.';

/** The journal's name beside the session file: `<session>.calls.json`. */
export const STARTED_CALLS_SUFFIX = '.calls.json';

interface Journal {
  readonly version: 1;
  /** The process that ran the calls: its own journal never answers for it while it lives. */
  readonly owner: ProcessIdentity;
  /** The session's message count when the calls' assistant message was the last one. */
  readonly after: number;
  readonly started: readonly string[];
}

/** The started-calls journal of one step: mark calls before they start, clear it once their results are saved. */
export interface StartedCalls {
  /** Records `ids` as started, with those already marked; resolves once the record is on disk. */
  mark(ids: readonly string[]): Promise<void>;
  /** Removes the journal; call it after the step's results are saved. */
  clear(): Promise<void>;
  /** Ends the step: a journal not cleared (its results could not be saved) now answers for it, in this process too. */
  close(): void;
}

// The journals whose steps are running in this process: only these are not read as left behind.
const running = new Set<string>();

/** Opens the journal of the step whose assistant message is the session's last, at `after` messages. */
export async function startedCallsOf(home: string, key: string, after: number): Promise<StartedCalls> {
  const file = sessionFileOf(home, key, STARTED_CALLS_SUFFIX);
  const owner = await processIdentity(process.pid);
  const started = new Set<string>();
  running.add(file);
  return {
    async mark(ids) {
      for (const id of ids) started.add(id);
      const journal: Journal = { version: 1, owner, after, started: [...started] };
      await writeFileAtomic(file, `${JSON.stringify(journal)}\n`);
    },
    async clear() {
      await rm(file, { force: true });
    },
    close() {
      running.delete(file);
    },
  };
}

/**
 * The history with the truth about calls a dead cw left running: when the last message is an
 * assistant's tool calls with no results, and the journal of a process no longer alive marks some
 * of them started, each of those gets a result saying its effects are unknown (status `unknown`).
 * Calls it never marked stay unanswered, and the request answers them "not executed".
 */
export async function withUnknownResults(
  home: string,
  key: string,
  messages: readonly ConversationMessage[],
): Promise<readonly ConversationMessage[]> {
  const last = messages.at(-1);
  if (last?.role !== 'assistant' || (last.tool_calls ?? []).length === 0) return messages;
  const file = sessionFileOf(home, key, STARTED_CALLS_SUFFIX);
  if (running.has(file)) return messages;
  const journal = await readJournal(file);
  if (journal === null || journal.after !== messages.length) return messages;
  // Another process's journal while it lives is a step in progress; this process's is one that failed.
  if (journal.owner.pid !== process.pid && (await isAlive(journal.owner))) return messages;
  const started = new Set(journal.started);
  const answers: ConversationMessage[] = (last.tool_calls ?? [])
    .filter((call) => started.has(call.id))
    .map((call) => ({
      role: 'tool',
      tool_call_id: call.id,
      name: call.name,
      content: EFFECTS_UNKNOWN_RESULT,
      status: 'unknown',
    }));
  return answers.length === 0 ? messages : [...messages, ...answers];
}

async function readJournal(file: string): Promise<Journal | null> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
  const journal = raw as Partial<Journal> | null;
  if (
    journal === null ||
    typeof journal !== 'object' ||
    journal.version !== 1 ||
    typeof journal.after !== 'number' ||
    !Array.isArray(journal.started) ||
    typeof journal.owner?.pid !== 'number'
  )
    return null;
  return {
    version: 1,
    owner: {
      pid: journal.owner.pid,
      startTime: typeof journal.owner.startTime === 'string' ? journal.owner.startTime : null,
    },
    after: journal.after,
    started: journal.started.filter((id): id is string => typeof id === 'string'),
  };
}
