import { createServer } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { hostAllowed, type NetworkProxy, startNetworkProxy } from './network-proxy.js';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

/** Sends raw bytes to the proxy and returns the first chunk of its answer. */
function ask(proxy: NetworkProxy, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.port, '127.0.0.1', () => socket.write(text));
    socket.once('data', (chunk) => {
      socket.destroy();
      resolve(chunk.toString('utf8'));
    });
    socket.on('error', reject);
  });
}

describe('hostAllowed', () => {
  it('matches exact names and *.domain subdomains, case-insensitively', () => {
    const list = ['registry.npmjs.org', '*.example.com', '127.0.0.1'];
    expect(hostAllowed('Registry.NPMjs.org', list)).toBe(true);
    expect(hostAllowed('a.b.example.com', list)).toBe(true);
    expect(hostAllowed('example.com', list)).toBe(false);
    expect(hostAllowed('evilexample.com', list)).toBe(false);
    expect(hostAllowed('127.0.0.1', list)).toBe(true);
    expect(hostAllowed('localhost', list)).toBe(false);
  });
});

describe('startNetworkProxy', () => {
  it('tunnels CONNECT to an allowed host and answers 403 for any other', async () => {
    const upstream = createServer((_request, response) => response.end('up'));
    open.push(upstream);
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = (upstream.address() as { port: number }).port;
    const proxy = await startNetworkProxy(['127.0.0.1'], true);
    open.push(proxy);
    expect(await ask(proxy, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)).toMatch(
      /^HTTP\/1\.1 200 /,
    );
    const refused = await ask(proxy, `CONNECT localhost:${port} HTTP/1.1\r\nHost: localhost:${port}\r\n\r\n`);
    expect(refused).toMatch(/^HTTP\/1\.1 403 /);
    expect(refused).toContain('sandbox.network allowlist');
    const plain = await ask(proxy, `GET http://localhost:${port}/ HTTP/1.1\r\nHost: localhost:${port}\r\n\r\n`);
    expect(plain).toMatch(/^HTTP\/1\.1 403 /);
  });
});
