import { describe, expect, it } from 'vitest';
import { describeMessage, mcpDebugEnabled } from './traced-transport.js';

describe('the MCP protocol trace', () => {
  it('names the kind, method, id and size; never arguments, results or an error text as sent', () => {
    expect(
      describeMessage('→', {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'write_file', arguments: { path: '/home/me/x' } },
      }),
    ).toMatch(/^→ request tools\/call #3 \(\d+ bytes\)$/);
    expect(describeMessage('←', { jsonrpc: '2.0', method: 'notifications/progress', params: {} })).toMatch(
      /^← notification notifications\/progress \(\d+ bytes\)$/,
    );
    expect(
      describeMessage('←', { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'secret' }] } }),
    ).toMatch(/^← result #3 \(\d+ bytes\)$/);
    const error = describeMessage('←', {
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32602, message: 'no such file /home/me/private' },
    });
    expect(error).toMatch(/^← error #4 -32602: no such file <path-redacted> \(\d+ bytes\)$/);
    expect(describeMessage('←', { jsonrpc: '2.0', method: 'x\u001b[31m', params: {} })).not.toContain('\u001b');
  });

  it('is on for CW_DEBUG=mcp, all or 1, alone or in a list', () => {
    expect(mcpDebugEnabled({ CW_DEBUG: 'mcp' })).toBe(true);
    expect(mcpDebugEnabled({ CW_DEBUG: 'http,mcp' })).toBe(true);
    expect(mcpDebugEnabled({ CW_DEBUG: 'all' })).toBe(true);
    expect(mcpDebugEnabled({ CW_DEBUG: 'http' })).toBe(false);
    expect(mcpDebugEnabled({})).toBe(false);
  });
});
