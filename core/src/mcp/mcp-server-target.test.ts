import { describe, expect, it } from 'vitest';
import { mcpServerConfigSchema } from '../config/cw-config.js';
import { isMcpHttpServer, isMcpStdioServer, mcpServerTarget, mcpTransportOf } from './mcp-server-target.js';

const server = (raw: unknown) => mcpServerConfigSchema.parse(raw);

describe('mcpTransportOf', () => {
  it('url means streamable HTTP, command means stdio', () => {
    const web = server({ url: 'https://mcp.example.com/mcp' });
    const files = server({ command: 'files-mcp' });
    expect(mcpTransportOf(web)).toBe('http');
    expect(mcpTransportOf(files)).toBe('stdio');
    expect(isMcpHttpServer(web) && !isMcpStdioServer(web)).toBe(true);
    expect(isMcpStdioServer(files) && !isMcpHttpServer(files)).toBe(true);
  });
});

describe('mcpServerTarget', () => {
  it('an HTTP server shows its host and port only, never the path or the query', () => {
    expect(mcpServerTarget(server({ url: 'https://mcp.example.com/tenant/acme-corp?key=abc' }))).toBe(
      'mcp.example.com',
    );
    expect(mcpServerTarget(server({ url: 'http://127.0.0.1:8931/mcp' }))).toBe('127.0.0.1:8931');
    expect(mcpServerTarget(server({ url: 'http://[::1]:8931/mcp' }))).toBe('[::1]:8931');
  });

  it('a host that looks like a key is fingerprinted', () => {
    const target = mcpServerTarget(server({ url: 'https://a1b2c3d4e5f6g7h8i9j0k1l2.example.com/mcp' }));
    expect(target).toMatch(/^sha256:[0-9a-f]{12}$/);
  });

  it('a stdio server shows its command file name, never the folder or the arguments', () => {
    expect(mcpServerTarget(server({ command: '/home/someone/bin/files-mcp', args: ['--token', 'x'] }))).toBe(
      'files-mcp',
    );
    expect(mcpServerTarget(server({ command: 'npx', args: ['-y', '@scope/server'] }))).toBe('npx');
    expect(mcpServerTarget(server({ command: 'ghp_FAKE0test0ONLY0not0a0real00000' }))).toMatch(/^sha256:/);
  });
});
