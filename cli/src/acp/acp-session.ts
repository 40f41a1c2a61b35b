import { randomBytes } from 'node:crypto';
import type { Agent, ApprovalPosture, ApprovalStore, McpServerConfig, PluginRegistry, SessionScope } from '@cw/core';

type Core = typeof import('@cw/core');

/**
 * One ACP session: a cw session of the workspace the editor opened (its ACP id is the cw session
 * key, `<workspace key>/<name>`, which holds no path), the agent for that folder, and what the editor
 * chose for it.
 */
export interface AcpSession {
  readonly id: string;
  readonly name: string;
  readonly cwd: string;
  readonly agent: Agent;
  /** The workspace root tool paths are relative to (absolute, for the editor's locations and diffs). */
  readonly workspace: string;
  posture: ApprovalPosture;
  route: string;
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
  /** The editor's answers: "always" for a tool or an MCP server lasts the session (the core's store). */
  readonly approvals: ApprovalStore;
  /** The running prompt's abort; null when idle. */
  running: AbortController | null;
  /** What the session's turns keep open between prompts (MCP servers started on first use); closed with it. */
  readonly scope: SessionScope;
}

/** What a session is made from: the registry every session shares and cw's default route. */
export interface SessionFactory {
  readonly core: Core;
  readonly registry: PluginRegistry;
  readonly defaultRouteId: string;
}

/** An id the editor sent that names no session of this workspace; the message names no path. */
export class UnknownSessionError extends Error {
  override readonly name = 'UnknownSessionError';
  readonly exitCode = 1;
  readonly safeMessage = 'no cw session of this workspace has that id';
}

/**
 * A fresh session in `cwd`: the next free `sN`, as `cw send -n` takes it, stored empty the moment it
 * is handed out so another cw process neither takes the name nor fails to resume it. A name another
 * process claimed first is passed over; after a few such races a random suffix ends them.
 */
export async function newSession(
  factory: SessionFactory,
  cwd: string,
  mcpServers: Readonly<Record<string, McpServerConfig>>,
): Promise<AcpSession> {
  const { cwHome } = await import('@cw/core/home');
  const home = cwHome();
  const agent = await agentIn(factory, cwd);
  for (let attempt = 0; attempt < 8; attempt++) {
    let { snapshot } = await agent.load({ session: { kind: 'new' } });
    if (attempt >= 3) {
      const name = `${snapshot.session.name}-${randomBytes(3).toString('hex')}`;
      snapshot = (await agent.load({ session: { kind: 'named', name } })).snapshot;
    }
    if (await factory.core.claimSession(home, snapshot.session.key))
      return sessionOf(factory, agent, cwd, snapshot, mcpServers);
  }
  throw new Error('no free session name');
}

/** The saved session `id` in `cwd`, and its messages to replay; UnknownSessionError when there is none. */
export async function loadSession(
  factory: SessionFactory,
  cwd: string,
  id: string,
  mcpServers: Readonly<Record<string, McpServerConfig>>,
): Promise<{ session: AcpSession; messages: import('@cw/core').CwSnapshot['session']['messages'] }> {
  const name = id.split('/').at(-1) ?? '';
  const agent = await agentIn(factory, cwd);
  let loaded: Awaited<ReturnType<Agent['load']>>;
  try {
    loaded = await agent.load({ session: { kind: 'named', name } });
  } catch (error) {
    // A name cw cannot store is no session of this workspace; anything else is a real failure.
    if ((error as { name?: unknown }).name === 'SessionNameError') throw new UnknownSessionError();
    throw error;
  }
  const { snapshot } = loaded;
  if (snapshot.session.key !== id) throw new UnknownSessionError();
  // A session handed out but not yet prompted is stored empty: it opens empty; a name never stored does not.
  if (snapshot.session.messages.length === 0 && !(await isStored(factory, id))) throw new UnknownSessionError();
  return {
    session: await sessionOf(factory, agent, cwd, snapshot, mcpServers),
    messages: snapshot.session.messages,
  };
}

async function isStored(factory: SessionFactory, id: string): Promise<boolean> {
  const { cwHome } = await import('@cw/core/home');
  const slash = id.lastIndexOf('/');
  const rows = await factory.core.listSessions(cwHome(), slash < 0 ? null : id.slice(0, slash));
  return rows.some((row) => row.key === id && !row.corrupt);
}

async function agentIn(factory: SessionFactory, cwd: string): Promise<Agent> {
  return factory.core.createAgent({
    registry: factory.registry,
    defaultRouteId: factory.defaultRouteId,
    env: process.env,
    cwd,
  });
}

async function sessionOf(
  factory: SessionFactory,
  agent: Agent,
  cwd: string,
  snapshot: import('@cw/core').CwSnapshot,
  mcpServers: Readonly<Record<string, McpServerConfig>>,
): Promise<AcpSession> {
  return {
    id: snapshot.session.key,
    name: snapshot.session.name,
    cwd,
    agent,
    workspace: await factory.core.workspaceRoot(snapshot.config.workspace, cwd),
    posture: snapshot.config.approval,
    route: snapshot.config.route ?? snapshot.defaultRouteId,
    mcpServers,
    approvals: new factory.core.ApprovalStore(),
    running: null,
    scope: factory.core.createSessionScope(),
  };
}

/** Ends a session: its running prompt is cancelled and what its turns kept open (MCP servers) is closed. */
export async function endSession(session: AcpSession): Promise<void> {
  session.running?.abort();
  await session.scope.close();
}

/** The saved sessions of the workspace `cwd` is in, newest first, as `session/list` gives them. */
export async function listWorkspaceSessions(
  factory: SessionFactory,
  cwd: string,
): Promise<{ sessionId: string; cwd: string; title: string; updatedAt: string }[]> {
  const { cwHome } = await import('@cw/core/home');
  const home = cwHome();
  const { key } = await factory.core.activeSession(home, cwd);
  const workspace = key.split('/')[0] ?? null;
  const rows = await factory.core.listSessions(home, workspace);
  return rows
    .filter((row) => !row.corrupt && row.messages > 0)
    .sort((a, b) => (a.lastUsed < b.lastUsed ? 1 : a.lastUsed > b.lastUsed ? -1 : 0))
    .map((row) => ({ sessionId: row.key, cwd, title: factory.core.safeIdentifier(row.name), updatedAt: row.lastUsed }));
}
