import { describe, expect, it } from 'vitest';
import { safeCatalogModel, safeIdentifier, safePhrase } from './safe-label.js';

const FINGERPRINT = /^sha256:[0-9a-f]{12}$/;
const NO_CATALOG: ReadonlySet<string> = new Set();

function expectRedacted(output: string): void {
  expect(output).toMatch(FINGERPRINT);
  expect(output).not.toContain('/');
  expect(output).not.toContain(' ');
}

describe('safeIdentifier and safeCatalogModel (SL cases)', () => {
  it.each(['deepseek-chat', 'claude-sonnet-4-5', 'gpt-5-codex', 'MiniMax-M3', 'my-gateway', 'kimi-k2-0905-preview'])(
    'SL-01 publishes %s verbatim',
    (id) => {
      expect(safeIdentifier(id)).toBe(id);
      expect(safeCatalogModel(id, NO_CATALOG)).toBe(id);
    },
  );

  // SL-02..SL-10: values that are never published, with their fingerprints (first 12 hex of SHA-256).
  it.each([
    ['SL-02', '/Users/someone/models/private-weights.gguf', 'sha256:8b5006ee5879'],
    ['SL-03', '~/.cw/config.json', 'sha256:8c8813ee47be'],
    ['SL-04', 'https://internal.example.com/v1/deployments/prod', 'sha256:b154f29d57a4'],
    ['SL-05', 'C:\\Users\\someone\\models\\weights.bin', 'sha256:188abb3e0216'],
    ['SL-06', 'sk-fixture-not-a-real-key-00000000', 'sha256:3f56adeff669'],
    ['SL-07', 'deployments/9f8e7d6c5b4a39281706abcdef012345', 'sha256:febad6a94f37'],
    ['SL-08', '../../etc/passwd', 'sha256:3754d6cb3a38'],
    ['SL-09', 'model with spaces and a /path/inside', 'sha256:0a46cb5b44df'],
    ['SL-10', 'api_key=sk-live-1234567890', 'sha256:cc692749e87c'],
  ])('%s fingerprints %s', (_id, raw, expected) => {
    expect(safeIdentifier(raw)).toBe(expected);
    expect(safeCatalogModel(raw, NO_CATALOG)).toBe(expected);
    expectRedacted(expected);
  });

  it.each([
    'src/lib.rs',
    'config/prod',
    'models/weights.gguf',
    'foo/bar-baz',
    'docs/preview-request.md',
    'models/llama-3.gguf',
  ])('SL-11 refuses any slash in an identifier: %s', (raw) => {
    expectRedacted(safeIdentifier(raw));
    expectRedacted(safeCatalogModel(raw, NO_CATALOG));
  });

  it('SL-12 publishes a slash-bearing model id only when it is an exact catalog entry', () => {
    const catalog = new Set(['qwen/qwen3.6-flash']);
    expect(safeIdentifier('qwen/qwen3.6-flash')).toBe('sha256:c555c633904c');
    expect(safeCatalogModel('qwen/qwen3.6-flash', catalog)).toBe('qwen/qwen3.6-flash');
    expect(safeCatalogModel('qwen/qwen3.6-flash', NO_CATALOG)).toBe('sha256:c555c633904c');
    expect(safeCatalogModel('QWEN/qwen3.6-flash', catalog)).toMatch(FINGERPRINT);
  });

  it.each(['openai/secrets/config', 'qwen/src/lib.rs'])('SL-13 refuses %s when it is not in the catalog', (raw) => {
    const catalog = new Set(['qwen/qwen3.6-flash']);
    expectRedacted(safeIdentifier(raw));
    expectRedacted(safeCatalogModel(raw, catalog));
  });

  it('refuses a catalog entry that fails the shape rules', () => {
    for (const raw of ['openai/secrets/config', 'vendor/model:tag', '/abs/model', 'a//b']) {
      expect(safeCatalogModel(raw, new Set([raw]))).toMatch(FINGERPRINT);
    }
  });

  it('SL-14 and SL-15 fingerprints are stable and distinguish values', () => {
    expect(safeIdentifier('/models/a.gguf')).toBe(safeIdentifier('/models/a.gguf'));
    expect(safeIdentifier('/models/a.gguf')).toBe('sha256:232cfdc559ef');
    expect(safeIdentifier('/models/b.gguf')).toBe('sha256:38bbba3c57ce');
  });

  it('SL-18 and SL-19: 19 alphanumerics in a row pass, 20 are opaque', () => {
    expect(safeIdentifier('abcdefghij012345678')).toBe('abcdefghij012345678');
    expectRedacted(safeIdentifier('abcdefghij0123456789'));
    expectRedacted(safeIdentifier('a'.repeat(64)));
  });

  it.each(['a:b', 'user@host', 'a+b', 'x.y'])('SL-20 publishes %s', (raw) => {
    expect(safeIdentifier(raw)).toBe(raw);
  });

  it.each(['.hidden', 'a..b', 'tool:x/y', 'Passwordless', 'SECRETARY', 'bearer-token'])('SL-21 refuses %s', (raw) => {
    expectRedacted(safeIdentifier(raw));
  });

  it('SL-22 and SL-23 check the trimmed value but fingerprint the untrimmed one', () => {
    expect(safeIdentifier(' my-gateway ')).toBe('my-gateway');
    expect(safeIdentifier(' /x ')).toBe('sha256:1f5ea453da76');
    expect(safeIdentifier('/x')).toBe('sha256:b3d1db318671');
  });

  it('SL-24 fingerprints the empty string', () => {
    expect(safeIdentifier('')).toBe('sha256:e3b0c44298fc');
    expect(safePhrase('')).toBe('sha256:e3b0c44298fc');
  });

  it('SL-27 hides every hostile part of a route description', () => {
    const outputs = [
      safeIdentifier('https://internal.example.com/v1/deployments/prod-key-8f2a'),
      safeIdentifier('openai/secrets/config'),
      safeCatalogModel('qwen/src/lib.rs', new Set(['qwen/qwen3.6-flash'])),
      safePhrase('sk-live-abcdef0123456789abcdef'),
    ].join('\n');
    for (const part of [
      'internal.example.com',
      'deployments/prod-key-8f2a',
      'openai/secrets/config',
      'qwen/src/lib.rs',
      'sk-live-',
    ]) {
      expect(outputs).not.toContain(part);
    }
    expect(outputs).toContain('sha256:');
  });
});

describe('safePhrase (SL cases)', () => {
  it.each(['Codex OAuth quota', 'OpenAI Codex (ChatGPT)', 'Custom (OpenAI-compatible)'])(
    'SL-16/SL-26 publishes %s',
    (raw) => {
      expect(safePhrase(raw)).toBe(raw);
    },
  );

  it.each([
    ['/opt/quota/plan', undefined],
    ['Moonshot/Kimi', 'sha256:af16f102ff3f'],
    ['Zhipu AI / Z.ai', 'sha256:c7fd4949a8d0'],
  ])('SL-17/SL-25 refuses %s', (raw, expected) => {
    const output = safePhrase(raw);
    expect(output).toMatch(FINGERPRINT);
    if (expected !== undefined) expect(output).toBe(expected);
  });

  it('refuses backslashes, tildes, quotes and overlong text', () => {
    for (const raw of ['a\\b', 'home ~ dir', "it's", 'x'.repeat(10) + ' ' + 'y'.repeat(70)]) {
      expect(safePhrase(raw)).toMatch(FINGERPRINT);
    }
    expect(safePhrase('word '.repeat(16).trim())).toBe('word '.repeat(16).trim());
  });
});

describe('credential and identifying shapes', () => {
  it('treats sk- as a key prefix only at a token boundary', () => {
    for (const word of ['ask-user', 'task-runner', 'whisk-mode', 'risk-level']) expect(safeIdentifier(word)).toBe(word);
    for (const phrase of ['risk-level: low', 'disk-cache hit', 'desk-top layout'])
      expect(safePhrase(phrase)).toBe(phrase);
    for (const raw of ['sk-x', 'SK-x', 'foo_sk-bar', 'a.sk-b']) expectRedacted(safeIdentifier(raw));
  });

  it('catches credential shapes that have no 20-character alphanumeric run', () => {
    const shaped = [
      'glpat-' + 'FAKE-test_ONLY-dummy',
      'AIza' + 'Fake_Test-Only_0123456',
      'eyJ' + 'hbGciFAKEtest.x',
      'xoxb-' + '1111-2222-FAKE',
      'org-' + 'FAKEorg0000test1111',
      'sk_' + 'test_FAKE00000',
      'gh' + 'p_FAKE_0000_test_1111',
    ];
    for (const raw of shaped) {
      expectRedacted(safeIdentifier(raw));
      expectRedacted(safePhrase(raw));
    }
    expectRedacted(safePhrase('-----BEGIN PRIVATE KEY-----'));
  });

  it('keeps near-misses of those shapes', () => {
    for (const raw of ['akia-style', 'eyes-only', 'github-actions', 'slack-notifier', 'jwt-decode', 'org-wide']) {
      expect(safeIdentifier(raw)).toBe(raw);
    }
  });

  it('refuses e-mail addresses, IP literals, UUIDs, host names, long numbers and __proto__', () => {
    for (const raw of [
      'alice.smith@acme-corp.example',
      '192.168.1.23',
      'fd00::1234:5678',
      '550e8400-e29b-41d4-a716-446655440000',
      'acme-prod-7f3a.openai.azure.com',
      'constructor.prototype.polluted',
      '+1-555-0100',
      '__proto__',
    ]) {
      expectRedacted(safeIdentifier(raw));
    }
    expectRedacted(safePhrase('getaddrinfo ENOTFOUND acme-prod-7f3a.openai.azure.com'));
    expectRedacted(safePhrase('Error: connect ECONNREFUSED 10.20.30.40:8443'));
  });

  it('still publishes ordinary dotted and numbered names', () => {
    for (const raw of [
      'chat.completions',
      'gpt-4.1',
      'v1.2.3',
      'llama-3.3-70b-instruct',
      'claude-sonnet-4-20250514',
      'sha256:3f2a9c1e7b4d',
    ]) {
      expect(safeIdentifier(raw)).toBe(raw);
    }
    expect(safePhrase('node 20.11.1')).toBe('node 20.11.1');
    expect(safePhrase('api version 2024-10-21')).toBe('api version 2024-10-21');
  });

  it('does not trim a byte-order mark into an allowlisted label', () => {
    expectRedacted(safeIdentifier('\ufeffopenai'));
    expect(safeIdentifier('\u00a0openai\u3000')).toBe('openai');
  });
});

describe('safeIdentifier, asked again', () => {
  it('gives each text its own verdict the first time and every time after', () => {
    const texts = ['default', ' default ', 'sk-test-0000000000000000000000000000', 'a/b', 'x'.repeat(300), 'route-2'];
    const first = texts.map((text) => safeIdentifier(text));
    expect(texts.map((text) => safeIdentifier(text))).toEqual(first);
    expect(first[0]).toBe('default');
    expect(first[1]).toBe('default');
    expect(first[2]).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(first[3]).toMatch(/^sha256:/);
    expect(first[5]).toBe('route-2');
  });
});
