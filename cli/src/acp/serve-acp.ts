import { isAbsolute } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { loadRegistryFrom, type RuntimeSource } from '../entry/load-runtime.js';
import { errorLine } from '../render/error-line.js';
import {
  type AcpSession,
  endSession,
  listWorkspaceSessions,
  loadSession,
  newSession,
  type SessionFactory,
  UnknownSessionError,
} from './acp-session.js';
import { clientMcpServers } from './client-mcp-servers.js';
import { initializeResult } from './initialize-answer.js';
import { replayHistory } from './replay-history.js';
import { runPrompt } from './run-prompt.js';
import { ROUTE_OPTION, isPosture, routeIds, sessionConfigOptions, sessionModes } from './session-options.js';

// `cw acp`: cw as an Agent Client Protocol agent on stdin and stdout (docs/editors.md). stdout is
// the wire, so nothing else may reach it: console output goes to stderr, and every error a client
// receives is cw's redacted line, never a raw message.

/** What the server needs from the command: where the plugins are, and cw's version for `initialize`. */
export interface ServeOptions {
  readonly source: RuntimeSource;
  readonly version: string;
  readonly input?: NodeJS.ReadableStream;
  readonly output?: NodeJS.WritableStream;
}

/** Serves ACP until the client closes the connection. */
export async function serveAcp(options: ServeOptions): Promise<void> {
  keepStdoutForTheWire();
  // The core and the plugins load after `initialize` is answered, not before: an editor waits for
  // that answer, and it needs neither (docs/performance.md, "Every entry"). Every other request awaits them.
  let loading: Promise<SessionFactory> | undefined;
  const ready = (): Promise<SessionFactory> => {
    loading ??= (async () => ({
      core: await import('@cw/core'),
      registry: await loadRegistryFrom(options.source.descriptors),
      defaultRouteId: options.source.defaultRouteId,
    }))();
    return loading;
  };
  const sessions = new Map<string, AcpSession>();
  // ACP lets an agent send `notice` updates only to a client that advertised `session.notices`.
  let clientTakesNotices = false;
  const sessionOf = (id: string): AcpSession => {
    const session = sessions.get(id);
    if (session === undefined) throw new UnknownSessionError();
    return session;
  };
  const absolute = (cwd: string): string => {
    if (!isAbsolute(cwd)) throw acp.RequestError.invalidParams(undefined, 'cwd must be an absolute path');
    return cwd;
  };
  // A session opened again (load or resume) replaces the one this connection had open under its id:
  // that one's prompt is cancelled and its servers closed, and the mode and route chosen for it stay.
  const reopen = async (params: {
    readonly sessionId: string;
    readonly cwd: string;
    readonly mcpServers?: readonly acp.McpServer[] | undefined;
  }) => {
    const opened = await loadSession(
      await ready(),
      absolute(params.cwd),
      params.sessionId,
      clientMcpServers(params.mcpServers ?? []),
    );
    const before = sessions.get(opened.session.id);
    if (before !== undefined) {
      await endSession(before);
      opened.session.posture = before.posture;
      opened.session.route = before.route;
    }
    sessions.set(opened.session.id, opened.session);
    return opened;
  };
  const optionsOf = async (session: AcpSession) => {
    const { core } = await ready();
    const { snapshot } = await session.agent.load({ session: { kind: 'named', name: session.name } });
    return {
      modes: sessionModes(session.posture),
      configOptions: sessionConfigOptions(core, snapshot, core.safeIdentifier(session.route)),
    };
  };

  const app = acp
    .agent({ name: 'cw' })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      clientTakesNotices = params.clientCapabilities?.session?.notices != null;
      // Once the answer is on its way; a failure to load shows on the request that needs what failed.
      setImmediate(() => void ready().catch(() => undefined));
      // The same result `cw acp` may already have sent before this SDK loaded (early-initialize.ts).
      return initializeResult(options.version);
    })
    .onRequest(acp.methods.agent.session.new, ({ params }) =>
      redacted(async () => {
        const session = await newSession(await ready(), absolute(params.cwd), clientMcpServers(params.mcpServers));
        sessions.set(session.id, session);
        return { sessionId: session.id, ...(await optionsOf(session)) };
      }),
    )
    .onRequest(acp.methods.agent.session.load, ({ params, client }) =>
      redacted(async () => {
        const { session, messages } = await reopen(params);
        const { core } = await ready();
        // The history is replayed before the answer, as the protocol asks.
        for (const update of replayHistory(messages, session.workspace, core.terminalSafe))
          await client.notify(acp.methods.client.session.update, { sessionId: session.id, update });
        return optionsOf(session);
      }),
    )
    .onRequest(acp.methods.agent.session.resume, ({ params }) =>
      redacted(async () => {
        // As load, without the replay: the editor still shows the conversation.
        const { session } = await reopen(params);
        return optionsOf(session);
      }),
    )
    .onRequest(acp.methods.agent.session.list, ({ params }) =>
      redacted(async () => ({
        sessions: await listWorkspaceSessions(await ready(), absolute(params.cwd ?? process.cwd())),
      })),
    )
    .onRequest(acp.methods.agent.session.close, ({ params }) =>
      redacted(async () => {
        const session = sessionOf(params.sessionId);
        sessions.delete(session.id);
        await endSession(session);
        return {};
      }),
    )
    .onRequest(acp.methods.agent.session.setMode, ({ params, client }) =>
      redacted(async () => {
        const session = sessionOf(params.sessionId);
        if (!isPosture(params.modeId))
          throw acp.RequestError.invalidParams(undefined, 'the mode is one of ask, read-only, workspace, never');
        session.posture = params.modeId;
        await client.notify(acp.methods.client.session.update, {
          sessionId: session.id,
          update: { sessionUpdate: 'current_mode_update', currentModeId: session.posture },
        });
        return {};
      }),
    )
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) =>
      redacted(async () => {
        const session = sessionOf(params.sessionId);
        const { core } = await ready();
        const { snapshot } = await session.agent.load({ session: { kind: 'named', name: session.name } });
        if (params.configId !== ROUTE_OPTION || typeof params.value !== 'string')
          throw acp.RequestError.invalidParams(undefined, 'the one option is route, a route id');
        if (!routeIds(core, snapshot).includes(params.value))
          throw acp.RequestError.invalidParams(undefined, 'no such route: cw routes lists them');
        session.route = params.value;
        return { configOptions: sessionConfigOptions(core, snapshot, session.route) };
      }),
    )
    .onRequest(acp.methods.agent.session.prompt, ({ params, client }) =>
      redacted(async () => {
        const session = sessionOf(params.sessionId);
        // Before the check: nothing may come between the check and the prompt's start.
        const { core } = await ready();
        if (session.running !== null)
          throw acp.RequestError.invalidRequest(undefined, 'a prompt is already running on this session');
        const stopReason = await runPrompt(core, session, params.prompt, {
          update: async (update) => {
            if (update.sessionUpdate === 'notice' && !clientTakesNotices) return;
            await client.notify(acp.methods.client.session.update, { sessionId: session.id, update });
          },
          requestPermission: (request) =>
            client.request(acp.methods.client.session.requestPermission, { sessionId: session.id, ...request }),
        });
        return { stopReason };
      }),
    )
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.running?.abort();
    });

  const output = options.output ?? process.stdout;
  const input = options.input ?? process.stdin;
  const connection = app.connect(
    acp.ndJsonStream(
      Writable.toWeb(output as Writable) as WritableStream<Uint8Array>,
      Readable.toWeb(input as Readable) as ReadableStream<Uint8Array>,
    ),
  );
  await connection.closed;
  // Every session's MCP servers stop before cw leaves.
  await Promise.all([...sessions.values()].map((session) => endSession(session)));
}

/**
 * Runs a handler; an error that is not already a protocol error reaches the client as cw's redacted
 * line (the same words cw prints on stderr), with the error's kind as data.
 */
async function redacted<T>(handler: () => Promise<T>): Promise<T> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof acp.RequestError) throw error;
    const { text } = await errorLine(error);
    // The editor's log shows the error; so does stderr, for a person reading cw's own output.
    process.stderr.write(`cw: ${text}\n`);
    const kind = (error as { kind?: unknown }).kind;
    const name = (error as { name?: unknown }).name;
    const code = error instanceof UnknownSessionError ? -32002 : -32603;
    throw new acp.RequestError(code, text, {
      kind: typeof kind === 'string' ? kind : typeof name === 'string' ? name : 'error',
    });
  }
}

// A module that logs with console.log would corrupt the wire: everything console writes goes to stderr.
function keepStdoutForTheWire(): void {
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}
