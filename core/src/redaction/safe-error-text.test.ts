import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact-secrets.js';
import { ELLIPSIS, PATH_REDACTED, REDACTED, UNAVAILABLE, safeErrorText } from './safe-error-text.js';

const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

// A fixed fake home stands in for a real one, so the case is deterministic; a later case uses the real one.
const FAKE_HOME = '/home/someone';

// ET-01..ET-28: an error text and the exact line safeErrorText must make of it.
const CASES: ReadonlyArray<readonly [string, string, string]> = [
  [
    'ET-01',
    'the shared route planner could not resolve this turn.',
    'the shared route planner could not resolve this turn.',
  ],
  [
    'ET-02',
    "MCP server 'x' failed: cannot spawn /Users/someone/projects/repo/bin/server while calling https://gateway.internal.example.com/v1/secret-deployment/messages",
    'MCP server <redacted> failed: cannot spawn <path-redacted> while calling https://gateway.internal.example.com/<path-redacted>',
  ],
  [
    'ET-03',
    "route 'prod-key-8f2a' rejected key sk-live-abcdef0123456789abcdef",
    'route <redacted> rejected key <redacted>',
  ],
  ['ET-04', 'cannot read C:\\Users\\someone\\.cw\\config.json', 'cannot read <path-redacted>'],
  ['ET-05', `cannot read ${FAKE_HOME}/.cw/config.json`, 'cannot read <path-redacted>'],
  [
    'ET-06',
    'GET https://gw.example.com/v1/deployments/prod-key-8f2a?api_key=sk-1234567890abcdef failed',
    'GET https://gw.example.com/<path-redacted> failed',
  ],
  ['ET-07', 'server "my secret server" refused: password=hunter2', 'server <redacted> refused: <redacted>'],
  ['ET-08', 'model /Users/someone/models/private.gguf is unavailable', 'model <path-redacted> is unavailable'],
  ['ET-09', 'authorization: Bearer eyJhbGciFAKEFIXTUREnotasecret', 'authorization: <redacted>'],
  [
    'ET-10',
    'endpoint http://10.0.0.5:8443/internal/deploy-9f8e7d6c5b4a3928 timed out',
    'endpoint http://10.0.0.5:8443/<path-redacted> timed out',
  ],
  ['ET-11', 'crash\u0007oops', '<redacted>'],
  ['ET-13', 'calling https://9f8e7d6c5b4a39281706abcdef012345.example/x', 'calling <redacted>'],
  ['ET-14', `failure ${'x'.repeat(4000)}`, 'failure <redacted>'],
  [
    'ET-15',
    `no API key configured for route 'my-gateway' at ${FAKE_HOME}/.config`,
    'no API key configured for route <redacted> at <path-redacted>',
  ],
  ['ET-16', '', '<unavailable>'],
  ['ET-16', ' \t\n ', '<unavailable>'],
  ['ET-18', "x /a /b /c 'q' 'r' \"s\" done", 'x <path-redacted> <path-redacted> <path-redacted> <redacted> done'],
  ['ET-19', 'see [docs] or {braces} and <angle>', 'see <redacted> or <redacted> and <redacted>'],
  ['ET-20', 'token expired: retry later', 'token expired: <redacted>'],
  ['ET-21', 'https://user:pw@api.example.com:8443/x?y#z', 'https://api.example.com:8443/<path-redacted>'],
  ['ET-22', 'HTTPS://API.EXAMPLE.COM', 'HTTPS://API.EXAMPLE.COM/<path-redacted>'],
  ['ET-23', '(https://api.example.com/v1) failed', '<redacted> failed'],
  ['ET-23', 'https://[::1]:8080/x', '<redacted>'],
  ['ET-24', '~/x', '<path-redacted>'],
  ['ET-24', 'C:\\x', '<path-redacted>'],
  ['ET-24', '~user/x', '<redacted>'],
  ['ET-24', 'c:/x', '<redacted>'],
  ['ET-24', 'mid/slash', '<redacted>'],
  ['ET-24', 'r\u00e9sum\u00e9', '<redacted>'],
  ['ET-25', 'word.. next', 'word.. next'],
  ['ET-25', 'end.', 'end.'],
  ['ET-25', '... !!! ???', '... !!! ???'],
  ['ET-26', 'a...b', '<redacted>'],
  ['ET-27', '3 enabled MCP server(s) are not connected yet', '3 enabled MCP <redacted> are not connected yet'],
  [
    'ET-28',
    'pending LSP diagnostics would be injected as a synthetic message; auto-compaction would rewrite the conversation first',
    'pending LSP diagnostics would be injected as a synthetic message; auto-compaction would rewrite the conversation first',
  ],
];

// ET-12: nothing from this list may appear in any hostile case's output.
const FORBIDDEN = [
  'prod-key-8f2a',
  'sk-live-',
  'sk-1234567890',
  '/Users/someone',
  'C:\\Users',
  '.cw',
  'api_key=',
  'hunter2',
  'password=',
  'eyJhbGci',
  '/v1/deployments',
  '/internal/deploy',
  'private.gguf',
  'my secret server',
  FAKE_HOME,
  '"',
  "'",
  '`',
];

describe('safeErrorText (ET cases)', () => {
  it.each(CASES)('%s: %j', (_id, input, expected) => {
    expect(safeErrorText(input)).toBe(expected);
  });

  it('ET-12: hostile outputs carry none of the forbidden parts', () => {
    for (const [id, input, _expected] of CASES) {
      if (id === 'ET-01' || id > 'ET-11') continue;
      const output = safeErrorText(input);
      for (const part of FORBIDDEN) expect(output, `${id} leaked ${part}`).not.toContain(part);
      expect(output).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
  });

  it("ET-05 and ET-15 also hold with this machine's real home directory", () => {
    const home = homedir();
    for (const input of [
      `cannot read ${home}/.cw/config.json`,
      `no API key configured for route 'my-gateway' at ${home}/.config`,
    ]) {
      const output = safeErrorText(input);
      if (home.length > 1) expect(output).not.toContain(home);
      expect(output).not.toContain("my-gateway'");
    }
  });

  it('ET-14: an overlong token stays within the bound and on one line', () => {
    const output = safeErrorText(`failure ${'x'.repeat(4000)}`);
    expect(output.length).toBeLessThanOrEqual(201);
    expect(output).not.toContain('\n');
  });

  it('ET-17: long ordinary text is cut to 200 bytes plus an ellipsis', () => {
    const words = 'a b c d e f g h i j k l m n o p q r s t u v w x y z '.repeat(52);
    const output = safeErrorText(words);
    expect(utf8Length(output)).toBe(203);
    expect(output).toBe(words.slice(0, 200) + ELLIPSIS);
  });

  it('tabs and newlines between words become single spaces', () => {
    expect(safeErrorText('first line\n\tsecond\r\nthird')).toBe('first line second third');
  });
});

describe('redactSecrets (the pre-pass, ET-29..ET-31)', () => {
  it('ET-29 redacts both keyed values and keeps the lead-in', () => {
    const output = redactSecrets('Decision: use token=plain-secret-value and api_key:another-secret-value');
    expect(output).not.toContain('plain-secret-value');
    expect(output).not.toContain('another-secret-value');
    expect(output.match(/\[redacted\]/g)).toHaveLength(2);
    expect(output.startsWith('Decision: use ')).toBe(true);
  });

  it('ET-30 removes a prefixed key and keeps the rest of the sentence', () => {
    const output = redactSecrets('the leaked key sk-abcdef1234567890 appeared in a log');
    expect(output).not.toContain('sk-abcdef1234567890');
    expect(output).toContain('appeared in a log');
  });

  it('ET-31 leaves a line without a sensitive key alone', () => {
    expect(redactSecrets('the quick brown fox = jumps over')).toBe('the quick brown fox = jumps over');
  });

  it('quotes a redacted value that was quoted', () => {
    expect(redactSecrets('export API_KEY="abc def"')).toBe('export API_KEY="[redacted]"');
    expect(redactSecrets('password:\thunter2')).toBe('password:\t[redacted]');
  });
});

describe('safeErrorText: idempotence adjustments', () => {
  it('is a fixed point on every ET output', () => {
    for (const [_id, input] of CASES) {
      const once = safeErrorText(input);
      expect(safeErrorText(once)).toBe(once);
    }
  });

  it('passes its own markers through a second pass', () => {
    for (const marker of [REDACTED, PATH_REDACTED, UNAVAILABLE]) expect(safeErrorText(marker)).toBe(marker);
    expect(safeErrorText('a <path-redacted> b <redacted> c')).toBe('a <path-redacted> b <redacted> c');
  });

  it('keeps a truncated text stable: the ellipsis is a word of its own', () => {
    const input = `${'word '.repeat(39)}abcdefghijkl and more words after the cut`;
    const once = safeErrorText(input);
    expect(once.endsWith(` ${ELLIPSIS}`)).toBe(true);
    expect(utf8Length(once)).toBeLessThanOrEqual(203);
    expect(once).not.toContain('abcdefghij' + ELLIPSIS);
    expect(safeErrorText(once)).toBe(once);
  });

  it('settles the keyed-line rule when flattening lines moves the first separator', () => {
    // One pass reads `my token` and `foo: bar` as separate lines; flattened, `my token foo:` is a keyed line.
    const once = safeErrorText('my token\nfoo: bar');
    expect(once).toBe('my token foo: <redacted>');
    expect(safeErrorText(once)).toBe(once);
  });

  it('settles the keyed-line rule when the first separator was inside a redacted word', () => {
    const once = safeErrorText('"a:b" token: xyz');
    expect(once).toBe('<redacted> token: <redacted>');
    expect(safeErrorText(once)).toBe(once);
  });
});

describe('safeErrorText: identifying values and credential shapes', () => {
  it('redacts bare host names, IP addresses, UUIDs and e-mail addresses', () => {
    expect(safeErrorText('getaddrinfo ENOTFOUND acme-prod-7f3a.openai.azure.com')).toBe(
      'getaddrinfo ENOTFOUND <redacted>',
    );
    expect(safeErrorText('connect ECONNREFUSED 10.20.30.40')).toBe('connect ECONNREFUSED <redacted>');
    expect(safeErrorText('request 550e8400-e29b-41d4-a716-446655440000 failed')).toBe('request <redacted> failed');
    expect(safeErrorText('owner alice@acme.example')).toBe('owner <redacted>');
  });

  it('redacts credential shapes that pass the word rules', () => {
    expect(safeErrorText('token glpat-FAKE-test_ONLY-dummy rejected')).toBe('token <redacted> rejected');
    expect(safeErrorText('key AIzaFakeTestOnly_NotARealKey-0123456789 rejected')).toBe('key <redacted> rejected');
  });

  it('does not treat sk- inside a word as a key prefix', () => {
    expect(safeErrorText('risk-level: low, disk-cache hit, ask-user')).toBe(
      'risk-level: low, disk-cache hit, ask-user',
    );
  });

  it('bounds a long run of punctuation like any other word', () => {
    expect(safeErrorText(`wait ${'.'.repeat(81)}`)).toBe('wait <redacted>');
    expect(safeErrorText(`wait ${'.'.repeat(80)}`)).toBe(`wait ${'.'.repeat(80)}`);
  });
});

describe('safeErrorText: PEM private keys', () => {
  it('withholds a whole private-key block, armour lines included', () => {
    const pem = [
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      'b3BlbnNzaC1rZXktdjEAAAAAFAKE0000',
      '-----END OPENSSH PRIVATE KEY-----',
    ].join('\n');
    expect(safeErrorText(`cannot load key:\n${pem}\nretrying`)).toBe('cannot load key: <redacted> retrying');
    expect(safeErrorText('-----BEGIN PRIVATE KEY-----\nMIIFAKE')).toBe('<redacted>');
  });
});

describe('safeErrorText: quoted spans and huge inputs', () => {
  it('withholds a whole multi-word quoted span, not just the words touching a quote', () => {
    expect(
      safeErrorText(`SyntaxError: Unexpected token 'u', "user said: my password is hunter2" is not valid JSON`),
    ).toBe('SyntaxError: Unexpected token <redacted> is not valid JSON');
    expect(
      safeErrorText(
        "TypeError: Cannot read properties of undefined (reading 'Please summarise the attached board minutes')",
      ),
    ).toBe('TypeError: Cannot read properties of undefined (reading <redacted>');
    expect(safeErrorText('note \u201csmart quoted private note\u201d kept after')).toBe('note <redacted> kept after');
    expect(safeErrorText('say " hello world " then')).toBe('say <redacted> then');
  });

  it('withholds an unclosed quoted span to the end, but not a bare quote character', () => {
    expect(safeErrorText('failed near "The user asked me to')).toBe('failed near <redacted>');
    expect(safeErrorText("Unexpected token ' in JSON at position 5")).toBe(
      'Unexpected token <redacted> in JSON at position 5',
    );
  });

  it('reads only the head of a huge text and says that it stopped', () => {
    const huge = `${'<redacted> '.repeat(10_000)}tail words here`;
    const output = safeErrorText(huge);
    expect(output).toBe('<redacted> \u2026');
    expect(safeErrorText(output)).toBe(output);
    const start = Date.now();
    safeErrorText('word '.repeat(2_000_000));
    expect(Date.now() - start).toBeLessThan(2_000);
  });

  it('does not keep a fragment of a word cut at the input bound', () => {
    const filler = 'ab '.repeat(21_840); // 65,520 characters
    const key = 'gh' + 'p_' + 'A'.repeat(36);
    const output = safeErrorText(`${filler}${key} end`);
    expect(output).not.toContain('ghp_');
    expect(output.endsWith(' \u2026')).toBe(true);
  });
});
