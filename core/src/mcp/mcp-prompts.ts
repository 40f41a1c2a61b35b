import { toolEnvironment } from '../agent/tool-environment.js';
import type { CwConfig, McpServerConfig } from '../config/cw-config.js';
import { safeIdentifier } from '../redaction/safe-label.js';
import {
  type ConnectMcpServerOptions,
  connectMcpServer,
  type McpConnection,
  type McpPromptInfo,
  type McpPromptMessages,
  McpServerError,
} from './connect-mcp-server.js';
import { McpConfigEditError } from './mcp-config-file.js';
import { mcpToolResult } from './mcp-tool-result.js';

/** One server's prompts, or why they could not be listed. */
export type McpPromptListing =
  | { readonly server: string; readonly ok: true; readonly prompts: readonly McpPromptInfo[] }
  | { readonly server: string; readonly ok: false; readonly code: string; readonly detail: string };

/** What connecting needs, shared by listing and getting prompts. */
export interface McpPromptOptions {
  readonly home: string;
  readonly servers: Readonly<Record<string, McpServerConfig>>;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The config whose `sandbox.env` and route key variables shape a stdio server's environment, as in a send (docs/security.md). */
  readonly config?: Pick<CwConfig, 'routes' | 'sandbox'>;
  readonly signal?: AbortSignal;
  /** The workspace: a server started outside the sandbox is never looked up inside it (docs/security.md). */
  readonly workspace?: string;
  /** The connector, for tests. */
  readonly connect?: (
    name: string,
    server: McpServerConfig,
    options: ConnectMcpServerOptions,
  ) => Promise<McpConnection>;
}

async function withServer<T>(
  name: string,
  server: McpServerConfig,
  options: McpPromptOptions,
  work: (connection: McpConnection) => Promise<T>,
): Promise<T> {
  const connection = await (options.connect ?? connectMcpServer)(name, server, {
    home: options.home,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.config === undefined
      ? {}
      : { commandEnv: toolEnvironment(options.env ?? process.env, [], options.config) }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
  });
  try {
    return await work(connection);
  } finally {
    await connection.close();
  }
}

/** Lists the prompts of every enabled server (or the one named), all at once; a failing server is a result, not a throw. */
export async function listMcpPrompts(
  options: McpPromptOptions & { readonly only?: string },
): Promise<McpPromptListing[]> {
  const targets = Object.entries(options.servers).filter(
    ([name, server]) => !server.disabled && (options.only === undefined || name === options.only),
  );
  return Promise.all(
    targets.map(async ([name, server]): Promise<McpPromptListing> => {
      try {
        const prompts = await withServer(name, server, options, (connection) => connection.listPrompts());
        return { server: name, ok: true, prompts };
      } catch (error) {
        const failure =
          error instanceof McpServerError ? error : new McpServerError(name, 'protocol-error', 'failed unexpectedly');
        return { server: name, ok: false, code: failure.code, detail: failure.detail };
      }
    }),
  );
}

/**
 * Runs one prompt, `server/name` with `args`, and returns the text a turn sends as its prompt: each
 * message's text, embedded text resources with their text, and a note for what a prompt cannot carry
 * (images, audio); messages of another role than `user` are labelled with it. A missing required
 * argument, an unknown server or prompt is a one-line McpConfigEditError naming what to fix.
 */
export async function resolveMcpPrompt(
  options: McpPromptOptions & { readonly ref: string; readonly args: Readonly<Record<string, string>> },
): Promise<string> {
  const split = options.ref.indexOf('/');
  if (split <= 0 || split === options.ref.length - 1)
    throw new McpConfigEditError('--mcp-prompt takes server/prompt, for example everything/simple-prompt');
  const serverName = options.ref.slice(0, split);
  const promptName = options.ref.slice(split + 1);
  const server = Object.hasOwn(options.servers, serverName) ? options.servers[serverName] : undefined;
  if (server === undefined || server.disabled)
    throw new McpConfigEditError(`no enabled MCP server named ${safeIdentifier(serverName)} (cw mcp list shows them)`);
  const messages = await withServer(serverName, server, options, async (connection): Promise<McpPromptMessages> => {
    const prompt = (await connection.listPrompts()).find((entry) => entry.name === promptName);
    if (prompt === undefined)
      throw new McpConfigEditError(
        `MCP server ${safeIdentifier(serverName)} has no prompt ${safeIdentifier(promptName)} (cw mcp prompts ${safeIdentifier(serverName)} lists them)`,
      );
    const known = new Set(prompt.arguments.map((argument) => argument.name));
    for (const given of Object.keys(options.args)) {
      if (!known.has(given))
        throw new McpConfigEditError(
          `the prompt ${safeIdentifier(promptName)} takes no argument ${safeIdentifier(given)}; it takes: ${[...known].map(safeIdentifier).join(', ') || 'none'}`,
        );
    }
    const missing = prompt.arguments.find(
      (argument) => argument.required && !Object.hasOwn(options.args, argument.name),
    );
    if (missing !== undefined)
      throw new McpConfigEditError(
        `the prompt ${safeIdentifier(promptName)} needs --arg ${safeIdentifier(missing.name)}=VALUE`,
      );
    return connection.getPrompt(promptName, options.args);
  });
  return promptText(messages);
}

/** The messages of a prompt as one prompt text, each part as a tool result's would read. */
export function promptText(prompt: McpPromptMessages): string {
  return prompt.messages
    .map((message) => {
      // A prompt is sent as text: its images become notes, like a tool result's on a route without images.
      const part = mcpToolResult({ content: [message.content] });
      const notes = part.images.map(
        (image, index) => `[image ${index + 1} left out: ${image.media_type}; a prompt is sent as text]`,
      );
      const text = [part.content, ...notes].join('\n');
      return message.role === 'user' ? text : `${message.role}: ${text}`;
    })
    .join('\n\n');
}
