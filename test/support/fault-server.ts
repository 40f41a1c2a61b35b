// A local HTTP server on 127.0.0.1 that misbehaves the way real providers do, for dispatch tests:
// each test queues what the next requests get, and reads back what cw sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** What to do with one request: write a response, or hold the socket. */
export type FaultHandler = (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>;

/** A running fault server. */
export interface FaultServer {
  readonly origin: string;
  readonly received: ReceivedRequest[];
  /** Queues handlers for the next requests, in order; a request with none queued gets a 500. */
  next(...handlers: FaultHandler[]): void;
  close(): Promise<void>;
}

/** Starts a fault server on an ephemeral loopback port. */
export async function startFaultServer(): Promise<FaultServer> {
  const queue: FaultHandler[] = [];
  const received: ReceivedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      open.add(response);
      response.on('close', () => open.delete(response));
      const handler = queue.shift() ?? ((_request, reply) => void reply.writeHead(500).end('no handler queued'));
      void Promise.resolve(handler(entry, response)).catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    next: (...handlers) => {
      queue.push(...handlers);
    },
    close: async () => {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A handler that answers one SSE stream of raw text blocks and ends it. */
export function sse(...blocks: string[]): FaultHandler {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const block of blocks) response.write(block);
    response.end();
  };
}

/** A handler that answers one JSON body with a status. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): FaultHandler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
}

/** SSE `data:` block for a JSON value. */
export function data(value: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(value)}\n\n`;
}
