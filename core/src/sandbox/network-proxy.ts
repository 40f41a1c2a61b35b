import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** cw's filtering proxy: reachable only from this machine, it connects sandboxed commands to allowed hosts only. */
export interface NetworkProxy {
  /** The loopback TCP port it listens on (macOS); 0 when it only takes connections handed to it (Linux). */
  readonly port: number;
  /** Serves a connection the bridge inside bubblewrap accepted and handed over (docs/security.md). */
  accept(connection: Socket): void;
  close(): Promise<void>;
}

// node:http and node:net load when a sandbox with an allowlist opens, never on the preview path.
const requireBuiltin = createRequire(import.meta.url);

/** Whether a host is on the allowlist: exactly, or under a `*.domain` entry. */
export function hostAllowed(host: string, allowlist: readonly string[]): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return allowlist.some((entry) => {
    const allowed = entry.toLowerCase();
    return allowed.startsWith('*.') ? name.endsWith(allowed.slice(1)) : name === allowed;
  });
}

const REFUSAL = 'cw sandbox: host not on the sandbox.network allowlist\n';

/**
 * Starts the proxy: HTTP requests with an absolute URL and CONNECT tunnels, each to an allowed host
 * only; anything else is answered 403 with a line that names the sandbox as the reason. It filters by
 * host name, as a command asks for it, so a name that resolves elsewhere is still only that name.
 */
export async function startNetworkProxy(allowlist: readonly string[], listen: boolean): Promise<NetworkProxy> {
  const http = requireBuiltin('node:http') as typeof import('node:http');
  const net = requireBuiltin('node:net') as typeof import('node:net');
  const sockets = new Set<Socket>();
  const server = http.createServer((request: IncomingMessage, response: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('cw sandbox: the proxy takes absolute URLs only\n');
      return;
    }
    if (target.protocol !== 'http:' || !hostAllowed(target.hostname, allowlist)) {
      response.writeHead(403, { 'content-type': 'text/plain' }).end(REFUSAL);
      return;
    }
    const upstream = http.request(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port === '' ? 80 : Number(target.port),
        path: `${target.pathname}${target.search}`,
        method: request.method,
        // The client addressed the proxy; the host it asked for is the one the request goes to.
        headers: { ...request.headers, host: target.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end('cw sandbox proxy: the host could not be reached\n');
    });
    request.pipe(upstream);
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(request.url ?? '');
    if (match === null || !hostAllowed(match[1] as string, allowlist)) {
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${REFUSAL}`);
      return;
    }
    const upstream = net.connect(Number(match[2]), (match[1] as string).replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (connection: Socket) => {
    sockets.add(connection);
    connection.on('close', () => sockets.delete(connection));
  });
  // On Linux nothing listens: the bridge hands each connection over cw's IPC channel with the command.
  if (listen)
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    accept: (connection) => {
      server.emit('connection', connection);
      connection.resume();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const connection of sockets) connection.destroy();
        if (listen) server.close(() => resolve());
        else resolve();
      }),
  };
}
