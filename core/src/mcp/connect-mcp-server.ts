// Only types are imported from the SDK here: the SDK itself is loaded inside connectMcpServer, so a
// preview (which never connects) never loads it.
import { boundServerCommand } from '../agent/spawn-bound-to-cw.js';
import type { CommandSandbox } from '../sandbox/command-sandbox.js';
import { userProgramOutsideWorkspace } from '../sandbox/trusted-program.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JsonValue } from '../canonical/canonical-json.js';
import type { McpServerConfig } from '../config/cw-config.js';
import { REDACTED, safeErrorText } from '../redaction/safe-error-text.js';
import { safeIdentifier } from '../redaction/safe-label.js';
import { expandEnvRecord, McpEnvReferenceError } from '../config/expand-env-references.js';
import { ALLOWLIST_ONLY, commandEnvironment } from '../agent/tool-environment.js';
import { StderrTail, writeMcpServerLog } from './mcp-server-log.js';
import { isMcpHttpServer } from './mcp-server-target.js';
import type { McpSnapshotTool } from './mcp-snapshot-store.js';
import { type McpToolResult, mcpToolResult } from './mcp-tool-result.js';
import { withScopedSignal } from './scoped-signal.js';

export type { McpToolResult } from './mcp-tool-result.js';
import { mcpDebugEnabled, TracedTransport } from './traced-transport.js';

/** How long connecting (starting the process or reaching the URL, then the MCP handshake) may take. */
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 10_000;
/** How long one tool call may take when the caller sets no limit. */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 60_000;

/** Why a project server whose workspace file changed since it was trusted is not started (docs/mcp.md). */
export const UNTRUSTED_FILE_DETAIL =
  'was not started: a workspace file it runs changed since you trusted it; check it, then run cw mcp trust';

// The most pages of tools cw reads from one server: a server that keeps handing out cursors is broken.
const MAX_TOOL_PAGES = 100;

/** Why talking to an MCP server failed, as a stable word a caller or a test can branch on. */
export type McpErrorCode =
  | 'env-reference'
  | 'spawn-failed'
  | 'sandbox-unavailable'
  | 'timeout'
  | 'connection-closed'
  | 'http-error'
  | 'protocol-error'
  | 'aborted'
  | 'untrusted-file';

/**
 * Talking to one MCP server failed. `detail` is one redacted line (cw's words, or outside text through
 * safeErrorText, with every expanded env and header value removed first): never a URL path, a header
 * or an env value. `safeMessage` adds the server's name as a safe label.
 */
export class McpServerError extends Error {
  override readonly name = 'McpServerError';
  readonly exitCode = 1;
  readonly code: McpErrorCode;
  readonly detail: string;
  readonly safeMessage: string;
  constructor(serverName: string, code: McpErrorCode, detail: string) {
    const text = `MCP server ${safeIdentifier(serverName)}: ${detail}`;
    super(text);
    this.code = code;
    this.detail = detail;
    this.safeMessage = text;
  }
}

/** What a server called itself in the handshake. */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
}

/** An open connection to one MCP server. */
export interface McpConnection {
  readonly serverInfo: McpServerInfo | null;
  /** Every tool the server lists, following `nextCursor` to the last page. */
  listTools(options?: { readonly timeoutMs?: number; readonly signal?: AbortSignal }): Promise<McpSnapshotTool[]>;
  /**
   * Calls one tool. A result the server marks as an error comes back with `isError`; so does an error
   * the server answers with (unknown tool, bad arguments). A timeout, a closed connection or an abort
   * throws McpServerError.
   */
  callTool(
    name: string,
    args: { readonly [key: string]: JsonValue },
    signal?: AbortSignal,
    timeoutMs?: number,
    onProgress?: McpProgress,
  ): Promise<McpToolResult>;
  /** Every prompt the server lists, following `nextCursor`; empty when it offers none. */
  listPrompts(options?: { readonly timeoutMs?: number; readonly signal?: AbortSignal }): Promise<McpPromptInfo[]>;
  /** Gets one prompt with its arguments: the messages the server made of it. */
  getPrompt(
    name: string,
    args: Readonly<Record<string, string>>,
    options?: { readonly timeoutMs?: number; readonly signal?: AbortSignal },
  ): Promise<McpPromptMessages>;
  /** Reads one resource by its URI: its contents, text or base64 blob, as the server gave them. */
  readResource(
    uri: string,
    options?: { readonly timeoutMs?: number; readonly signal?: AbortSignal },
  ): Promise<McpResourceContents>;
  /** Closes the connection; a stdio server's process is stopped (stdin closed, then SIGTERM, then SIGKILL). */
  close(): Promise<void>;
}

/** What `resources/read` returned: each part's URI, media type, and its text or base64 blob. */
export interface McpResourceContents {
  readonly contents: readonly {
    readonly uri: string;
    readonly mimeType: string | null;
    readonly text: string | null;
    readonly blob: string | null;
  }[];
}

/** A prompt a server offers: its name, description and arguments. */
export interface McpPromptInfo {
  readonly name: string;
  readonly description: string;
  readonly arguments: readonly { readonly name: string; readonly description: string; readonly required: boolean }[];
}

/** What `prompts/get` returned: its messages, each a role and its content parts as the server sent them. */
export interface McpPromptMessages {
  readonly messages: readonly { readonly role: string; readonly content: Readonly<Record<string, unknown>> }[];
}

/** How to connect. */
export interface ConnectMcpServerOptions {
  /**
   * Where `${env:NAME}` references are looked up. Default: process.env. Only `commandEnv` and the
   * server's own `env` reach the server.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** What a stdio server starts from before its own `env` (toolEnvironment); default: the allowlist applied to `env`. */
  readonly commandEnv?: Readonly<Record<string, string>>;
  /** Whether the workspace files a project server runs are still the ones trusted (docs/mcp.md); false: not started. */
  readonly filesUnchanged?: (serverName: string, server: McpServerConfig) => Promise<boolean>;
  /** Default DEFAULT_MCP_CONNECT_TIMEOUT_MS. */
  readonly timeoutMs?: number;
  /** Aborts connecting (Ctrl-C). */
  readonly signal?: AbortSignal;
  /** The version cw gives in the handshake. */
  readonly clientVersion?: string;
  /** Where a stdio server with `"sandbox": true` runs; without one such a server is not started. */
  readonly sandbox?: CommandSandbox;
  /** The workspace: a server started outside the sandbox is never looked up inside it (docs/security.md). */
  readonly workspace?: string;
  /**
   * The cw home: a stdio server's stderr (redacted, its last lines) is kept in
   * `mcp/logs/<name>.log` there when the connection ends or fails. Absent: kept nowhere.
   */
  readonly home?: string;
  /**
   * Where the protocol trace goes, one redacted line per message. Default: stderr when `CW_DEBUG`
   * (in `env`) asks for `mcp`, else nowhere.
   */
  readonly debug?: (line: string) => void;
  /** Called when the server says its tool list changed (`notifications/tools/list_changed`). */
  readonly onToolsChanged?: () => void;
}

/** What a long tool call reports while it runs: a progress notification, as one redacted line. */
export type McpProgress = (line: string) => void;

/**
 * The environment a stdio server starts with: what every command cw starts receives (`commandEnv`, else
 * the allowlist alone applied to `env`; docs/security.md), then the server's expanded `env` on top.
 */
export function stdioServerEnvironment(
  expanded: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
  commandEnv?: Readonly<Record<string, string>>,
): Record<string, string> {
  return { ...(commandEnv ?? commandEnvironment(env, ALLOWLIST_ONLY).env), ...expanded };
}

/**
 * Connects to one MCP server and completes the handshake, within `timeoutMs`. References in `env` and
 * `headers` are expanded here and only here; the expanded values live in this connection alone. A
 * stdio server's stderr is kept only as its last redacted lines, for the log (`home`) and for the
 * cause a failure names. Every failure, including an unset variable, is a McpServerError, and nothing
 * is left running after one.
 */
export async function connectMcpServer(
  serverName: string,
  server: McpServerConfig,
  options: ConnectMcpServerOptions = {},
): Promise<McpConnection> {
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
  let expanded: Record<string, string>;
  try {
    expanded = expandEnvRecord(isMcpHttpServer(server) ? server.headers : server.env, env);
  } catch (error) {
    if (error instanceof McpEnvReferenceError) throw new McpServerError(serverName, 'env-reference', error.safeMessage);
    throw error;
  }
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { McpError, ToolListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const secrets = secretValues(expanded);
  const kinds: ErrorKinds = {
    secrets,
    jsonRpcCode: (error) => (error instanceof McpError ? error.code : null),
    httpStatus: () => null,
  };
  let transport: Transport;
  let release: (() => Promise<void>) | undefined;
  let tail: StderrTail | null = null;
  let stderrDone: Promise<void> = Promise.resolve();
  if (isMcpHttpServer(server)) {
    const { StreamableHTTPClientTransport, StreamableHTTPError } = await import(
      '@modelcontextprotocol/sdk/client/streamableHttp.js'
    );
    const { UnauthorizedError } = await import('@modelcontextprotocol/sdk/client/auth.js');
    kinds.httpStatus = (error) =>
      error instanceof StreamableHTTPError ? (error.code ?? 0) : error instanceof UnauthorizedError ? 401 : null;
    transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: expanded },
      // A redirect to another origin would take the headers (and their credentials) with it.
      redirectPolicy: 'same-origin',
    });
  } else {
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const { SandboxedStdioTransport } = await import('./sandboxed-stdio-transport.js');
    const serverEnv = stdioServerEnvironment(expanded, env, options.commandEnv);
    // Checked again at the last moment: a send may run for minutes after its snapshot was taken.
    if (options.filesUnchanged !== undefined && !(await options.filesUnchanged(serverName, server)))
      throw new McpServerError(serverName, 'untrusted-file', UNTRUSTED_FILE_DETAIL);
    // Fail closed: a server that asked for the sandbox never runs without one.
    if (server.sandbox === true && options.sandbox === undefined)
      throw new McpServerError(serverName, 'sandbox-unavailable', 'it asks for the sandbox and none is available');
    const wrapped =
      server.sandbox === true && options.sandbox !== undefined
        ? await options.sandbox.wrap([server.command, ...server.args], {
            cwd: server.cwd ?? process.cwd(),
            env: serverEnv,
            writable: await pathsNamedIn(server.args, server.cwd ?? process.cwd()),
          })
        : null;
    release = wrapped?.release;
    // Inside the sandbox the spawn carries its filter too (docs/security.md), which the SDK's cannot.
    // Outside it, a bare command is looked up on PATH past the folders the model can fill. Either way
    // the server dies with cw, however cw ends (docs/agent-loop.md, "Nothing outlives cw").
    const command =
      wrapped !== null
        ? wrapped.file
        : userProgramOutsideWorkspace(
            server.command,
            serverEnv,
            options.workspace ? { workspace: options.workspace } : {},
          );
    if (command === null) throw new McpServerError(serverName, 'spawn-failed', 'the command was not found');
    const bound = boundServerCommand(command, wrapped === null ? server.args : wrapped.args, wrapped?.env ?? serverEnv);
    const stdio =
      wrapped !== null
        ? new SandboxedStdioTransport(
            { ...wrapped, file: bound.command, args: bound.args },
            server.cwd,
            await import('@modelcontextprotocol/sdk/shared/stdio.js'),
          )
        : new StdioClientTransport({
            command: bound.command,
            args: bound.args,
            env: serverEnv,
            ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
            stderr: 'pipe',
          });
    // Kept only as redacted last lines: a server's stderr can hold anything, including what it was given.
    const kept = new StderrTail((text) => scrub(text, secrets));
    tail = kept;
    const stream = stdio.stderr;
    stream?.on('data', (chunk: Buffer) => kept.push(chunk));
    stderrDone = new Promise((resolve) => {
      if (!stream) return resolve();
      stream.once('close', () => {
        kept.end();
        resolve();
      });
      stream.once('end', () => kept.end());
    });
    transport = stdio;
  }
  const debug = options.debug ?? (mcpDebugEnabled(env) ? defaultDebugSink(serverName) : undefined);
  if (debug) transport = new TracedTransport(transport, debug);
  const stderr: StderrRecord = { tail, done: stderrDone, home: options.home ?? null };

  const client = new Client({ name: 'cw', version: options.clientVersion ?? '0.1.0' }, { capabilities: {} });
  // The SDK reports transport trouble here as well as through the pending request; the request is
  // what fails the connect, so this only keeps an unhandled error from reaching the process.
  client.onerror = () => {};
  const onToolsChanged = options.onToolsChanged;
  if (onToolsChanged !== undefined)
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => onToolsChanged());
  try {
    await withScopedSignal(options.signal, (signal) =>
      withDeadline(client.connect(transport, { timeout: timeoutMs, signal }), timeoutMs),
    );
  } catch (error) {
    await closeQuietly(client, transport);
    await release?.();
    throw await withServerWords(serverName, toServerError(serverName, error, kinds, timeoutMs), stderr);
  }
  // The sandbox's private temp folder goes when the server's process does.
  if (release !== undefined) {
    const onClose = transport.onclose;
    const done = release;
    transport.onclose = () => {
      onClose?.();
      void done();
    };
  }
  const version = client.getServerVersion();
  const serverInfo =
    version && typeof version.name === 'string' && typeof version.version === 'string'
      ? { name: version.name, version: version.version }
      : null;
  return new SdkConnection(serverName, client, transport, serverInfo, kinds, stderr);
}

/** A stdio server's stderr: its kept lines, when the stream has ended, and where its log goes. */
interface StderrRecord {
  readonly tail: StderrTail | null;
  readonly done: Promise<void>;
  readonly home: string | null;
}

// How long cw waits for a failed server's last stderr lines to arrive: they name the cause.
const STDERR_SETTLE_MS = 300;

/**
 * Adds the cause the server gave (its last stderr lines, redacted) to a failure, and keeps its log.
 * A failure cw caused itself (an aborted call) or with nothing on stderr is returned as it was.
 */
async function withServerWords(
  serverName: string,
  error: McpServerError,
  stderr: StderrRecord,
): Promise<McpServerError> {
  if (stderr.tail === null) return error;
  // A server that exited has more to say until its stderr closes; one that timed out said it already.
  if (error.code !== 'timeout')
    await Promise.race([stderr.done, new Promise((resolve) => setTimeout(resolve, STDERR_SETTLE_MS).unref())]);
  await keepLog(serverName, stderr);
  const words = stderr.tail.lastWords();
  if (words === null || error.code === 'aborted' || error.code === 'env-reference') return error;
  return new McpServerError(serverName, error.code, `${error.detail}; the server said: ${words}`);
}

/** Writes the server's kept stderr lines to its log; a log that cannot be written never fails a call. */
async function keepLog(serverName: string, stderr: StderrRecord): Promise<void> {
  if (stderr.tail === null || stderr.home === null) return;
  await writeMcpServerLog(stderr.home, serverName, stderr.tail.lines()).catch(() => undefined);
}

function defaultDebugSink(serverName: string): (line: string) => void {
  const label = safeIdentifier(serverName);
  return (line) => process.stderr.write(`cw: mcp ${label} ${line}\n`);
}

/** The existing folders and files a server's args name (absolute, `./`, `../` or `~/`): the server may write them. */
async function pathsNamedIn(args: readonly string[], cwd: string): Promise<string[]> {
  const { stat } = await import('node:fs/promises');
  const { homedir } = await import('node:os');
  const { resolve, join } = await import('node:path');
  const out: string[] = [];
  for (const arg of args) {
    if (!/^(?:\/|\.\.?\/|~\/)/.test(arg)) continue;
    const path = arg.startsWith('~/') ? join(homedir(), arg.slice(2)) : resolve(cwd, arg);
    try {
      await stat(path);
      out.push(path);
    } catch {
      // Not there: nothing to make writable.
    }
  }
  return out;
}

class SdkConnection implements McpConnection {
  readonly serverInfo: McpServerInfo | null;
  readonly #name: string;
  readonly #client: Client;
  readonly #transport: Transport;
  readonly #kinds: ErrorKinds;
  readonly #stderr: StderrRecord;

  constructor(
    name: string,
    client: Client,
    transport: Transport,
    serverInfo: McpServerInfo | null,
    kinds: ErrorKinds,
    stderr: StderrRecord,
  ) {
    this.#name = name;
    this.#client = client;
    this.#transport = transport;
    this.serverInfo = serverInfo;
    this.#kinds = kinds;
    this.#stderr = stderr;
  }

  async listTools(
    options: { readonly timeoutMs?: number; readonly signal?: AbortSignal } = {},
  ): Promise<McpSnapshotTool[]> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
    const tools: McpSnapshotTool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    try {
      await withDeadline(
        (async () => {
          for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
            const result = await withScopedSignal(options.signal, (signal) =>
              this.#client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs, signal }),
            );
            for (const tool of result.tools) tools.push(snapshotTool(tool));
            cursor = result.nextCursor;
            if (cursor === undefined || seen.has(cursor)) return;
            seen.add(cursor);
          }
        })(),
        timeoutMs,
      );
    } catch (error) {
      throw await withServerWords(this.#name, toServerError(this.#name, error, this.#kinds, timeoutMs), this.#stderr);
    }
    return tools;
  }

  async listPrompts(
    options: { readonly timeoutMs?: number; readonly signal?: AbortSignal } = {},
  ): Promise<McpPromptInfo[]> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
    // A server without the prompts capability offers none; asking would only be refused.
    if (this.#client.getServerCapabilities()?.prompts === undefined) return [];
    const prompts: McpPromptInfo[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
        const result = await withScopedSignal(options.signal, (signal) =>
          withDeadline(
            this.#client.listPrompts(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs, signal }),
            timeoutMs,
          ),
        );
        for (const prompt of result.prompts) {
          prompts.push({
            name: prompt.name,
            description: prompt.description ?? '',
            arguments: (prompt.arguments ?? []).map((argument) => ({
              name: argument.name,
              description: argument.description ?? '',
              required: argument.required === true,
            })),
          });
        }
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
    } catch (error) {
      throw toServerError(this.#name, error, this.#kinds, timeoutMs);
    }
    return prompts;
  }

  async getPrompt(
    name: string,
    args: Readonly<Record<string, string>>,
    options: { readonly timeoutMs?: number; readonly signal?: AbortSignal } = {},
  ): Promise<McpPromptMessages> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
    try {
      const result = await withScopedSignal(options.signal, (signal) =>
        withDeadline(
          this.#client.getPrompt({ name, arguments: { ...args } }, { timeout: timeoutMs, signal }),
          timeoutMs,
        ),
      );
      return {
        messages: result.messages.map((message) => ({
          role: message.role,
          content: JSON.parse(JSON.stringify(message.content)) as Record<string, unknown>,
        })),
      };
    } catch (error) {
      throw toServerError(this.#name, error, this.#kinds, timeoutMs);
    }
  }

  async readResource(
    uri: string,
    options: { readonly timeoutMs?: number; readonly signal?: AbortSignal } = {},
  ): Promise<McpResourceContents> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
    try {
      const result = await withScopedSignal(options.signal, (signal) =>
        withDeadline(this.#client.readResource({ uri }, { timeout: timeoutMs, signal }), timeoutMs),
      );
      return {
        contents: result.contents.map((part) => ({
          uri: part.uri,
          mimeType: typeof part.mimeType === 'string' ? part.mimeType : null,
          text: 'text' in part && typeof part.text === 'string' ? part.text : null,
          blob: 'blob' in part && typeof part.blob === 'string' ? part.blob : null,
        })),
      };
    } catch (error) {
      throw toServerError(this.#name, error, this.#kinds, timeoutMs);
    }
  }

  async callTool(
    name: string,
    args: { readonly [key: string]: JsonValue },
    signal?: AbortSignal,
    timeoutMs: number = DEFAULT_MCP_CALL_TIMEOUT_MS,
    onProgress?: McpProgress,
  ): Promise<McpToolResult> {
    let result: Awaited<ReturnType<Client['callTool']>>;
    try {
      result = await withScopedSignal(signal, (scoped) =>
        withDeadline(
          this.#client.callTool({ name, arguments: { ...args } }, undefined, {
            timeout: timeoutMs,
            signal: scoped,
            // Asking for progress makes a server that supports it report on long calls.
            ...(onProgress ? { onprogress: (progress) => onProgress(progressLine(progress)) } : {}),
          }),
          timeoutMs,
        ),
      );
    } catch (error) {
      if (signal?.aborted) throw new McpServerError(this.#name, 'aborted', 'the tool call was cancelled');
      const mcpCode = this.#kinds.jsonRpcCode(error);
      // An error the server answered with is the tool's result: the model reads it and may try again.
      if (mcpCode !== null && mcpCode !== CONNECTION_CLOSED && mcpCode !== REQUEST_TIMEOUT) {
        return { isError: true, content: (error as Error).message, images: [] };
      }
      const failure = toServerError(this.#name, error, this.#kinds, timeoutMs);
      // A server that died mid-call says why on stderr; one that is only slow has nothing to add.
      throw failure.code === 'connection-closed' ? await withServerWords(this.#name, failure, this.#stderr) : failure;
    }
    return mcpToolResult(result as Readonly<Record<string, unknown>>);
  }

  async close(): Promise<void> {
    await closeQuietly(this.#client, this.#transport);
    await Promise.race([this.#stderr.done, new Promise((resolve) => setTimeout(resolve, STDERR_SETTLE_MS).unref())]);
    await keepLog(this.#name, this.#stderr);
  }
}

/** A progress notification as one line: `3/10`, `40%` or a count, and the server's message, redacted. */
export function progressLine(progress: {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}): string {
  const amount =
    progress.total !== undefined && progress.total > 0
      ? `${progress.progress}/${progress.total}`
      : String(progress.progress);
  return progress.message === undefined ? amount : `${amount} ${safeErrorText(progress.message)}`;
}

// JSON-RPC codes the SDK uses for its own failures (types.js ErrorCode).
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

/** How to recognise the SDK's errors (its classes, loaded with it) and which values to scrub from text. */
interface ErrorKinds {
  readonly secrets: readonly string[];
  readonly jsonRpcCode: (error: unknown) => number | null;
  httpStatus: (error: unknown) => number | null;
}

/** A listed tool as the snapshot stores it: name, description, input schema, and annotations when given. */
function snapshotTool(tool: {
  name: string;
  description?: string | undefined;
  inputSchema: object;
  annotations?: object | undefined;
}): McpSnapshotTool {
  // The SDK parsed these from JSON-RPC: they are JSON already; the round trip drops any undefined.
  const inputSchema = JSON.parse(JSON.stringify(tool.inputSchema)) as McpSnapshotTool['inputSchema'];
  const entry: McpSnapshotTool = { name: tool.name, description: tool.description ?? '', inputSchema };
  if (tool.annotations === undefined) return entry;
  return { ...entry, annotations: JSON.parse(JSON.stringify(tool.annotations)) as McpSnapshotTool['inputSchema'] };
}

/** The expanded values a failure's text must not carry; very short ones would only blank out ordinary words. */
function secretValues(expanded: Readonly<Record<string, string>>): string[] {
  const values = new Set<string>();
  for (const value of Object.values(expanded)) {
    if (value.length >= 4) values.add(value);
    // `Bearer <token>`: the token alone may be quoted back.
    for (const word of value.split(/\s+/)) if (word.length >= 8) values.add(word);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

function scrub(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) scrubbed = scrubbed.split(secret).join(` ${REDACTED} `);
  return scrubbed;
}

/** Our own deadline, on top of the SDK's request timeout: it also covers starting the transport. */
class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

async function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DeadlineError()), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function closeQuietly(client: Client, transport: Transport): Promise<void> {
  await client.close().catch(() => {});
  await transport.close().catch(() => {});
}

function toServerError(serverName: string, error: unknown, kinds: ErrorKinds, timeoutMs: number): McpServerError {
  if (error instanceof McpServerError) return error;
  const make = (code: McpErrorCode, detail: string) => new McpServerError(serverName, code, detail);
  if (error instanceof DeadlineError) return make('timeout', `no answer within ${timeoutMs} ms`);
  if (!(error instanceof Error)) return make('protocol-error', 'failed');
  if (error.name === 'AbortError') return make('aborted', 'cancelled');
  const rpc = kinds.jsonRpcCode(error);
  if (rpc === REQUEST_TIMEOUT) return make('timeout', `no answer within ${timeoutMs} ms`);
  if (rpc === CONNECTION_CLOSED) return make('connection-closed', 'the server closed the connection (did it exit?)');
  const errno = (error as NodeJS.ErrnoException).code;
  if (errno === 'ENOENT') return make('spawn-failed', 'the command was not found');
  if (errno === 'EACCES') return make('spawn-failed', 'the command is not executable');
  const status = kinds.httpStatus(error);
  if (status !== null) return make('http-error', status > 0 ? `the server answered HTTP ${status}` : 'HTTP error');
  // fetch() failures carry the reason (ECONNREFUSED, ENOTFOUND, …) in `cause`.
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof TypeError && cause instanceof Error) {
    const causeCode = (cause as NodeJS.ErrnoException).code;
    return make(
      'http-error',
      `cannot reach the server (${safeErrorText(scrub(causeCode ?? cause.message, kinds.secrets))})`,
    );
  }
  if (typeof errno === 'string') return make('spawn-failed', `cannot start the server (${safeErrorText(errno)})`);
  return make('protocol-error', safeErrorText(scrub(error.message, kinds.secrets)));
}
