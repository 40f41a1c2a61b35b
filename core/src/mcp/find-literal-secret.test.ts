import { describe, expect, it } from 'vitest';
import { mcpServerConfigSchema } from '../config/cw-config.js';
import { findLiteralSecret } from './find-literal-secret.js';

const find = (raw: unknown) => findLiteralSecret(mcpServerConfigSchema.parse(raw));

describe('findLiteralSecret', () => {
  it('references are not secrets', () => {
    expect(find({ command: 'gh-mcp', env: { GITHUB_TOKEN: '${env:GITHUB_TOKEN}' } })).toBeNull();
    expect(find({ url: 'https://h.example.com/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } })).toBeNull();
    expect(
      find({ url: 'https://h.example.com/mcp', headers: { 'X-Api-Key': '${env:API_KEY_0123456789}' } }),
    ).toBeNull();
  });

  it('ordinary values are not secrets', () => {
    expect(find({ command: 'files-mcp', args: ['--root', '/home/someone/projects/long-folder-name'] })).toBeNull();
    expect(
      find({ command: 'x', env: { LOG_LEVEL: 'debug', AUTH_MODE: 'device-code', SESSION_DIR: '/tmp/sessions' } }),
    ).toBeNull();
    expect(find({ url: 'https://h.example.com/mcp', headers: { Accept: 'application/json' } })).toBeNull();
  });

  it('a known credential shape anywhere is found, and only the field and name come back', () => {
    const token = 'ghp_FAKE0test0ONLY0not0a0real0token00000';
    expect(find({ command: 'x', env: { SOMETHING: token } })).toEqual({ field: 'env', key: 'SOMETHING' });
    expect(find({ url: 'https://h.example.com/mcp', headers: { 'X-Thing': `token ${token}` } })).toEqual({
      field: 'headers',
      key: 'X-Thing',
    });
    expect(find({ command: 'x', args: ['--token', token] })).toEqual({ field: 'args', key: null });
    expect(find({ url: `https://h.example.com/mcp?key=${token}` })).toEqual({ field: 'url', key: null });
  });

  it('a long opaque value under a credential-sounding name is found', () => {
    expect(
      find({ url: 'https://h.example.com/mcp', headers: { Authorization: 'Bearer 0a1b2c3d4e5f6a7b8c9d' } }),
    ).toEqual({
      field: 'headers',
      key: 'Authorization',
    });
    expect(find({ command: 'x', env: { MY_SERVICE_TOKEN: 'abc123def456ghi789' } })).toEqual({
      field: 'env',
      key: 'MY_SERVICE_TOKEN',
    });
  });

  it('a reference next to a literal secret does not hide it', () => {
    expect(
      find({ url: 'https://h.example.com/mcp', headers: { Authorization: 'Bearer ${env:T} 0a1b2c3d4e5f6a7b8c9d' } }),
    ).toEqual({ field: 'headers', key: 'Authorization' });
  });
});
