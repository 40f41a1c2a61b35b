import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { endpointFingerprint, endpointHostClass } from './endpoint-class.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('endpointHostClass and endpointFingerprint (EP cases)', () => {
  it('EP-01: same host, same class; different path, different fingerprint', () => {
    const a = 'https://sk-live-abcdef0123456789.tenant.example/v1/deployments/secret/chat';
    const b = 'https://sk-live-abcdef0123456789.tenant.example/other/private/path';
    const hostClass = endpointHostClass(a);
    expect(hostClass).toBe('https remote sha256:4a0bd77617a3');
    expect(endpointHostClass(b)).toBe(hostClass);
    expect(endpointFingerprint(a)).not.toBe(endpointFingerprint(b));
    for (const part of ['sk-live', 'tenant', 'example', 'deployment', 'secret']) expect(hostClass).not.toContain(part);
    expect(hostClass.length).toBeLessThanOrEqual(40);
  });

  it('EP-02: an IDN host is hashed as punycode and shown as neither', () => {
    const hostClass = endpointHostClass('https://\u79d8\u5bc6.example/private/path?api_key=secret');
    expect(hostClass).toBe('https remote sha256:3e3361a4d03d');
    for (const part of ['\u79d8\u5bc6', 'xn--', 'example', 'private', 'api_key', 'secret'])
      expect(hostClass).not.toContain(part);
  });

  it('EP-03 and EP-06: loopback hosts', () => {
    expect(endpointHostClass('http://127.0.0.1:8080/private/token-shaped-path')).toBe('http loopback');
    expect(endpointHostClass('http://localhost:3000/x')).toBe('http loopback');
    expect(endpointHostClass('HTTP://LOCALHOST/x')).toBe('http loopback');
    expect(endpointHostClass('http://127.1/')).toBe('http loopback');
    expect(endpointHostClass('https://127.200.0.9/')).toBe('https loopback');
  });

  it('EP-04: credentials, path and query never reach the class; the fingerprint covers them all', () => {
    const url = `https://user:hunter2@api.z.ai:8443/api/paas/v4/chat/completions?api_key=${'sk-fixture-not-a-real-key-00000000'}`;
    const hostClass = endpointHostClass(url);
    expect(hostClass).toBe('https remote sha256:53d02720a3b3');
    expect(endpointFingerprint(url)).toBe('aba32caa6cba77692aebe2323ddb29cb514205b044ce583816741232b2627135');
    for (const part of ['hunter2', 'api_key=', '/api/paas/v4/chat/completions']) expect(hostClass).not.toContain(part);
  });

  it('EP-05: the same URL gives the same fingerprint, the SHA-256 of the full string', () => {
    const url = 'https://api.deepseek.com/chat/completions';
    expect(endpointFingerprint(url)).toBe(endpointFingerprint(url));
    expect(endpointFingerprint(url)).toBe(sha256(url));
    expect(endpointFingerprint(url)).toMatch(/^[0-9a-f]{64}$/);
    expect(endpointHostClass(url)).toBe('https remote sha256:1233de6f8766');
  });

  it('EP-07: any other scheme is "other"', () => {
    expect(endpointHostClass('ftp://files.example.org/x')).toBe(
      `other remote sha256:${sha256('files.example.org').slice(0, 12)}`,
    );
    expect(endpointHostClass('wss://mcp.internal.acme.example/sse?token=x')).toMatch(
      /^other remote sha256:[0-9a-f]{12}$/,
    );
  });

  it('EP-08: an unparseable URL is fingerprinted whole', () => {
    expect(endpointHostClass('not a url')).toBe(`unparseable sha256:${sha256('not a url').slice(0, 12)}`);
    expect(endpointHostClass('')).toBe('unparseable sha256:e3b0c44298fc');
  });

  it('drops default ports and keeps explicit ones', () => {
    expect(endpointHostClass('https://API.Example.com:443/v1')).toBe(endpointHostClass('https://api.example.com/v2'));
    expect(endpointHostClass('https://api.example.com:8443/')).toBe(
      `https remote sha256:${sha256('api.example.com:8443').slice(0, 12)}`,
    );
  });

  it('IPv6 loopback is loopback in every spelling', () => {
    expect(endpointHostClass('http://[::1]:3000/v1/messages')).toBe('http loopback');
    expect(endpointHostClass('http://[0:0:0:0:0:0:0:1]/')).toBe('http loopback');
    expect(endpointHostClass('http://[::2]/')).toMatch(/^http remote sha256:/);
  });
});
