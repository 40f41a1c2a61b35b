import { basename } from 'node:path';
import { fingerprint } from '../canonical/sha256.js';
import type { McpHttpServerConfig, McpServerConfig, McpStdioServerConfig } from '../config/cw-config.js';
import { looksOpaque } from '../redaction/opaque.js';
import { safeIdentifier } from '../redaction/safe-label.js';

/** How cw reaches a server: a local process over stdio, or a remote server over streamable HTTP. */
export type McpTransportKind = 'stdio' | 'http';

/** True for a streamable HTTP entry (it has `url`), false for a stdio one (it has `command`). */
export function isMcpHttpServer(server: McpServerConfig): server is McpHttpServerConfig {
  return 'url' in server;
}

/** True for a stdio entry. */
export function isMcpStdioServer(server: McpServerConfig): server is McpStdioServerConfig {
  return 'command' in server;
}

/** The transport an entry uses. */
export function mcpTransportOf(server: McpServerConfig): McpTransportKind {
  return isMcpHttpServer(server) ? 'http' : 'stdio';
}

const MAX_HOST_BYTES = 80;
// A DNS name or IPv4 address with an optional port, or a bracketed IPv6 literal with one.
const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * What `cw mcp list` may print of where a server is. For HTTP, the host and port only, as error text
 * shows a URL's host (the path, query and any credentials stay hidden; a host that looks like a key is
 * fingerprinted). For stdio, the command's file name through safeIdentifier: never its folder, never an
 * argument or an env value.
 */
export function mcpServerTarget(server: McpServerConfig): string {
  if (isMcpHttpServer(server)) {
    let host: string;
    try {
      host = new URL(server.url).host.toLowerCase();
    } catch {
      return fingerprint(server.url);
    }
    const publishable = host !== '' && host.length <= MAX_HOST_BYTES && HOST.test(host) && !looksOpaque(host);
    return publishable ? host : fingerprint(host);
  }
  return safeIdentifier(basename(server.command));
}
