import type { McpServerConfig } from '../../config/cw-config.js';
import type { McpConnection } from '../../mcp/connect-mcp-server.js';
import type { ConnectMcpServerOptions } from '../../mcp/connect-mcp-server.js';
import type { ImageMediaType, MentionedFile } from '../../prompt/user-message.js';
import { IMAGE_MEDIA_TYPES } from '../../prompt/user-message.js';
import { safeErrorText } from '../../redaction/index.js';
import type { Mention } from './file-mentions.js';
import { MAX_MENTIONED_IMAGE_BYTES, MAX_MENTIONED_TEXT_BYTES } from './file-mentions.js';
import { PromptResolutionError } from './prompt-resolution-error.js';

/** A mention `@server:uri`: a resource of an enabled MCP server (docs/mcp.md, "Resources"). */
export interface ResourceMention {
  readonly server: string;
  readonly uri: string;
}

/**
 * Splits a prompt's mentions into files and MCP resources. A mention is a resource when the text
 * before its first `:` names an enabled server; anything else stays a file path (`@./name:x` is
 * always a file).
 */
export function splitMentions(
  mentions: readonly Mention[],
  servers: Readonly<Record<string, McpServerConfig>>,
): { readonly files: Mention[]; readonly resources: ResourceMention[] } {
  const files: Mention[] = [];
  const resources: ResourceMention[] = [];
  for (const mention of mentions) {
    const colon = mention.path.indexOf(':');
    const server = colon > 0 ? mention.path.slice(0, colon) : '';
    const uri = mention.path.slice(colon + 1);
    const enabled = server !== '' && Object.hasOwn(servers, server) && servers[server]?.disabled !== true;
    if (enabled && uri !== '') resources.push({ server, uri });
    else files.push(mention);
  }
  return { files, resources };
}

/** How resource mentions are read: the servers as configured, and how to reach them. */
export interface ResourceReading {
  readonly servers: Readonly<Record<string, McpServerConfig>>;
  readonly connectOptions: ConnectMcpServerOptions;
  /** The connector; connectMcpServer unless a test gives another. */
  readonly connect: (name: string, server: McpServerConfig, options: ConnectMcpServerOptions) => Promise<McpConnection>;
}

/**
 * Reads each mentioned resource from its server, one connection per server, closed before this
 * returns. Text parts are kept as text, images as images; anything else, a part over the bounds a
 * mentioned file has, or a server that cannot answer stops the turn with a PromptResolutionError
 * naming the mention by its place, never its URI.
 */
export async function readResourceMentions(
  resources: readonly ResourceMention[],
  reading: ResourceReading,
  firstOrdinal = 1,
): Promise<MentionedFile[]> {
  const connections = new Map<string, Promise<McpConnection>>();
  const read: MentionedFile[] = [];
  try {
    for (const [index, mention] of resources.entries()) {
      const ordinal = `resource mention ${firstOrdinal + index}`;
      const server = reading.servers[mention.server] as McpServerConfig;
      let contents: Awaited<ReturnType<McpConnection['readResource']>>;
      try {
        let connection = connections.get(mention.server);
        if (connection === undefined) {
          connection = reading.connect(mention.server, server, reading.connectOptions);
          connections.set(mention.server, connection);
        }
        contents = await (await connection).readResource(
          mention.uri,
          reading.connectOptions.signal ? { signal: reading.connectOptions.signal } : {},
        );
      } catch (error) {
        const problem = safeErrorText(error instanceof Error ? error.message : String(error));
        throw new PromptResolutionError(`${ordinal} could not be read: ${problem}`);
      }
      const texts: string[] = [];
      for (const part of contents.contents) {
        if (part.text !== null) {
          texts.push(part.text);
          continue;
        }
        const decoded = part.blob === null ? null : textBlob(part.mimeType, part.blob);
        if (decoded !== null) {
          texts.push(decoded);
          continue;
        }
        const mediaType = IMAGE_MEDIA_TYPES.find((type) => type === part.mimeType) as ImageMediaType | undefined;
        if (mediaType === undefined || part.blob === null)
          throw new PromptResolutionError(`${ordinal} is binary; only text and images can be attached`);
        if (Buffer.byteLength(part.blob, 'base64') > MAX_MENTIONED_IMAGE_BYTES)
          throw new PromptResolutionError(`${ordinal} is an image larger than ${MAX_MENTIONED_IMAGE_BYTES} bytes`);
        read.push({ kind: 'image', path: `${mention.server}:${mention.uri}`, mediaType, data: part.blob });
      }
      if (texts.length === 0) continue;
      const text = texts.join('\n');
      if (Buffer.byteLength(text) > MAX_MENTIONED_TEXT_BYTES)
        throw new PromptResolutionError(`${ordinal} is larger than ${MAX_MENTIONED_TEXT_BYTES} bytes`);
      read.push({ kind: 'resource', server: mention.server, uri: mention.uri, text });
    }
  } finally {
    await Promise.all(
      [...connections.values()].map((connection) =>
        connection.then(
          (open) => open.close(),
          () => undefined,
        ),
      ),
    );
  }
  return read;
}

/** A blob the server says is text (`text/*`, JSON), as text when it is valid UTF-8; else null. */
function textBlob(mimeType: string | null, blob: string): string | null {
  if (mimeType === null || !(mimeType.startsWith('text/') || mimeType === 'application/json')) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(blob, 'base64'));
  } catch {
    return null;
  }
}
