import { readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ConversationMessage } from '../prompt/conversation.js';
import { safeIdentifier } from '../redaction/safe-label.js';
import { withFileLock } from './file-lock.js';
import { removeInterruptedWrites } from './interrupted-writes.js';
import { storedSessions } from './select-session.js';
import { parseSessionKey, sessionKeyOf, SESSION_NAME_PATTERN, workspaceSessionsFolder } from './session-location.js';
import { readStoredSession, SessionError, sessionPath } from './session-store.js';

/** One stored session as `cw sessions` lists it: counts and labels, never message text. */
export interface SessionSummary {
  readonly name: string;
  readonly key: string;
  /** The workspace key (the folder's name and a short hash of its path); null for a session kept by name only. */
  readonly workspace: string | null;
  /** User prompts in the session. */
  readonly turns: number;
  readonly messages: number;
  /** When the session file last changed, ISO 8601. */
  readonly lastUsed: string;
  /** The route its last turn went to, when recorded. */
  readonly route: string | null;
  /** The file is not a readable session; cw send moves it aside. */
  readonly corrupt: boolean;
}

/** A session cw sessions was asked about does not exist, or its new name is taken. */
export class SessionNotFoundError extends Error {
  override readonly name = 'SessionNotFoundError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor(message: string) {
    super(message);
    this.safeMessage = message;
  }
}

// A workspace folder inside `sessions/`: named by workspaceKeyOf.
const WORKSPACE_FOLDER = /^[A-Za-z0-9_-]{1,32}-[0-9a-f]{10}$/;

/**
 * The sessions of one workspace, or of every workspace (and those kept by name only) with `null`.
 * Changes nothing but the temp copies killed writes left (docs/agent-loop.md, "After a crash").
 */
export async function listSessions(home: string, workspaceKey: string | null): Promise<SessionSummary[]> {
  const workspaces =
    workspaceKey !== null
      ? [workspaceKey]
      : [
          null,
          ...(await readdir(join(home, 'sessions'), { withFileTypes: true }).catch(() => []))
            .filter((entry) => entry.isDirectory() && WORKSPACE_FOLDER.test(entry.name))
            .map((entry) => entry.name)
            .sort(),
        ];
  const rows: SessionSummary[] = [];
  for (const workspace of workspaces) {
    await removeInterruptedWrites(
      workspace === null ? join(home, 'sessions') : workspaceSessionsFolder(home, workspace),
    );
    for (const stored of await storedSessions(home, workspace)) {
      const key = sessionKeyOf(workspace, stored.name);
      const base = { name: stored.name, key, workspace, lastUsed: new Date(stored.modifiedMs).toISOString() };
      try {
        const session = await readStoredSession(home, key);
        rows.push({
          ...base,
          turns: session.messages.filter((message) => message.role === 'user').length,
          messages: session.messages.length,
          route: session.route ?? null,
          corrupt: false,
        });
      } catch (error) {
        if (!(error instanceof SessionError)) throw error;
        rows.push({ ...base, turns: 0, messages: 0, route: null, corrupt: true });
      }
    }
  }
  return rows.sort((a, b) => b.lastUsed.localeCompare(a.lastUsed) || a.key.localeCompare(b.key));
}

/** One message of a session as `cw sessions show` prints it: role, size and tool calls; text only when asked. */
export interface SessionMessageView {
  readonly role: ConversationMessage['role'];
  /** UTF-8 bytes of the message text. */
  readonly bytes: number;
  /** Tool calls an assistant message made, by tool name. */
  readonly tool_calls: readonly string[];
  /** For a tool result: the tool and how the call ended. */
  readonly tool: string | null;
  readonly status: string | null;
  readonly images: number;
}

/** The messages of a stored session, as views. Throws SessionNotFoundError when there is none. */
export async function showSession(home: string, key: string): Promise<readonly ConversationMessage[]> {
  await mustExist(home, key);
  await removeInterruptedWrites(dirname(sessionPath(home, key)));
  return (await readStoredSession(home, key)).messages;
}

/** The view of one message: sizes and names, no text. */
export function messageView(message: ConversationMessage): SessionMessageView {
  return {
    role: message.role,
    bytes: Buffer.byteLength(message.content, 'utf8'),
    tool_calls: message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.name) : [],
    tool: message.role === 'tool' ? message.name : null,
    status: message.role === 'tool' ? (message.status ?? null) : null,
    images: message.role === 'user' ? (message.images?.length ?? 0) : 0,
  };
}

/** Removes a session: its messages and every state file kept beside it, under its lock. */
export async function removeSession(home: string, key: string): Promise<void> {
  await mustExist(home, key);
  await withFileLock(sessionPath(home, key), async () => {
    for (const file of await filesOf(home, key)) await rm(file.path, { recursive: true, force: true });
    // Copies of the conversation an interrupted write left go with it.
    await removeInterruptedWrites(dirname(sessionPath(home, key)));
  });
}

/** Renames a session within its workspace, with its state files; the new name must be free. */
export async function renameSession(home: string, key: string, newName: string): Promise<string> {
  if (!SESSION_NAME_PATTERN.test(newName))
    throw new SessionNotFoundError('a session name is 1 to 64 letters, digits, - or _');
  await mustExist(home, key);
  const { workspaceKey } = parseSessionKey(key);
  const target = sessionKeyOf(workspaceKey, newName);
  if (await exists(sessionPath(home, target)))
    throw new SessionNotFoundError(`a session named ${safeIdentifier(newName)} already exists in this workspace`);
  await withFileLock(sessionPath(home, key), () =>
    withFileLock(sessionPath(home, target), async () => {
      const { name } = parseSessionKey(key);
      for (const file of await filesOf(home, key))
        await rename(file.path, join(file.folder, `${newName}${file.entry.slice(name.length)}`));
    }),
  );
  return target;
}

/** The files of a session: `<name>.json` and `<name>.<state>`; its lock and temp files are the lock's own. */
async function filesOf(home: string, key: string): Promise<{ folder: string; entry: string; path: string }[]> {
  const { workspaceKey, name } = parseSessionKey(key);
  const folder = workspaceKey === null ? join(home, 'sessions') : workspaceSessionsFolder(home, workspaceKey);
  const entries = await readdir(folder).catch(() => []);
  return entries
    .filter((entry) => entry.startsWith(`${name}.`) && !entry.endsWith('.lock') && !entry.includes('.tmp'))
    .map((entry) => ({ folder, entry, path: join(folder, entry) }));
}

async function mustExist(home: string, key: string): Promise<void> {
  if (!(await exists(sessionPath(home, key))))
    throw new SessionNotFoundError(
      `no session named ${safeIdentifier(parseSessionKey(key).name)} in this workspace; cw sessions lists them`,
    );
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
