import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { endpointFingerprint, endpointHostClass } from './endpoint-class.js';
import { safeCatalogModel, safeIdentifier, safePhrase } from './safe-label.js';
import { safeErrorText } from './safe-error-text.js';
import { terminalSafe } from './terminal-safe.js';
import { BENIGN, BLNS, HOSTILE, leakedSecret } from '../../../test/support/label-corpus.js';

const CATALOG: ReadonlySet<string> = new Set(['qwen/qwen3.6-flash', 'deepseek-ai/deepseek-v3', 'moonshotai/kimi-k2']);
const FINGERPRINT = /^sha256:[0-9a-f]{12}$/;
const CONTROL_OR_LINE_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function expectNoSecretOf(input: string, output: string): void {
  expect(leakedSecret(input, output), 'leaked a secret-shaped part').toBeUndefined();
}

function surfaces(text: string): Record<string, string> {
  return {
    identifier: safeIdentifier(text),
    catalogModel: safeCatalogModel(text, CATALOG),
    phrase: safePhrase(text),
    errorText: safeErrorText(text),
    endpoint: endpointHostClass(text),
  };
}

describe('fixture integrity', () => {
  it('the hostile corpus decodes to exactly its recorded items', () => {
    // SHA-256 of JSON.stringify(decoded items) of hostile-labels.txt, as recorded in SOURCES.md.
    const digest = createHash('sha256')
      .update(JSON.stringify(HOSTILE.map((item) => item.text)))
      .digest('hex');
    expect(HOSTILE).toHaveLength(247);
    expect(digest).toBe('c5c79f90d33bf787911dbaab5ddbcf148bcb4d0dae053ef723754fbef396ad3d');
  });

  it('the other fixtures are complete', () => {
    expect(BENIGN).toHaveLength(101);
    expect(Array.isArray(BLNS) && BLNS.length === 515 && BLNS.every((item) => typeof item === 'string')).toBe(true);
  });
});

describe('hostile corpus', () => {
  it.each(HOSTILE.map((item) => [item.category, item.text] as const))(
    '[%s] %j never comes out verbatim or leaks',
    (_category, text) => {
      for (const [surface, output] of Object.entries(surfaces(text))) {
        expect(output, surface).not.toBe(text);
        expect(output, surface).not.toMatch(CONTROL_OR_LINE_BREAK);
        expectNoSecretOf(text, output);
      }
      const labels = [safeIdentifier(text), safeCatalogModel(text, CATALOG), safePhrase(text)];
      for (const label of labels) expect(label).toMatch(FINGERPRINT);
      expect(Buffer.byteLength(safeErrorText(text), 'utf8')).toBeLessThanOrEqual(203);
      expect(endpointHostClass(text)).toMatch(
        /^(?:(?:https?|other) (?:loopback|remote sha256:[0-9a-f]{12})|unparseable sha256:[0-9a-f]{12})$/,
      );
      expect(endpointFingerprint(text)).toMatch(/^[0-9a-f]{64}$/);
    },
  );

  it('every pure key is fully withheld from error text', () => {
    for (const { text } of HOSTILE.filter((item) => item.category === 'api-keys')) {
      expect(safeErrorText(text)).toBe('<redacted>');
    }
  });
});

describe('benign corpus', () => {
  // The corpus says only that a redactor must not alter these "when they reach it"; which function each
  // reaches is ours to say. The list below is what the label and error-text rules refuse by design:
  // `=` and `/` are not label characters, and `password`, `secret` and `bearer` are opaque markers
  // even inside ordinary words (safe-label.test.ts SL-21 pins `Passwordless` and `bearer-token`).
  const REFUSED_BY_DESIGN = [
    'messages=3',
    'tools=2',
    'max_tokens=1024',
    'temperature=0.7',
    'top_p=1',
    'bytes=4096',
    'status=200',
    'status=429',
    'retry_after_ms=1500',
    'application/json',
    'password field omitted',
    'secret scanning enabled',
    'bearer-token-auth plugin',
  ];

  const survivesSomewhere = (text: string): boolean =>
    safeIdentifier(text) === text || safePhrase(text) === text || safeErrorText(text) === text;

  it('every line survives terminalSafe unchanged', () => {
    for (const { text } of BENIGN) expect(terminalSafe(text)).toBe(text);
  });

  it('model ids and provider names survive safeIdentifier and safeCatalogModel', () => {
    for (const { text } of BENIGN.filter((item) => item.category === 'model-ids' || item.category === 'providers')) {
      expect(safeIdentifier(text)).toBe(text);
      expect(safeCatalogModel(text, CATALOG)).toBe(text);
    }
  });

  it('near-misses of secret prefixes survive safeIdentifier or safePhrase', () => {
    for (const { text } of BENIGN.filter((item) => item.category === 'near-misses')) {
      if (REFUSED_BY_DESIGN.includes(text)) continue;
      const kept = text.includes(' ') ? safePhrase(text) : safeIdentifier(text);
      expect(kept).toBe(text);
    }
  });

  it('diagnostics survive safePhrase or, with a semicolon, safeErrorText', () => {
    for (const { text } of BENIGN.filter((item) => item.category === 'diagnostics')) {
      expect(text.includes(';') ? safeErrorText(text) : safePhrase(text)).toBe(text);
    }
  });

  it('exactly the lines refused by design survive no function; those are fingerprinted whole', () => {
    const refused = BENIGN.map((item) => item.text).filter((text) => !survivesSomewhere(text));
    expect(refused).toEqual(REFUSED_BY_DESIGN);
    for (const text of refused) {
      expect(safeIdentifier(text)).toMatch(FINGERPRINT);
      expect(safePhrase(text)).toMatch(FINGERPRINT);
    }
  });
});

describe('Big List of Naughty Strings', () => {
  const strings = (BLNS as string[]).map((text, index) => [index, text] as const);
  // "Ordinary" is exactly what the label rules can publish: printable ASCII from a small alphabet.
  const ORDINARY_IDENTIFIER = /^[A-Za-z0-9._+@:-]{1,64}$/;
  const ORDINARY_PHRASE = /^[A-Za-z0-9._+@: (),-]{1,80}$/;

  it.each(strings)('#%i %j is published unchanged only when ordinary, else fingerprinted', (_index, text) => {
    const identifier = safeIdentifier(text);
    const phrase = safePhrase(text);
    const errorText = safeErrorText(text);
    // Published means: the value itself, or the value without surrounding white space, and ordinary.
    const trimmed = text.replace(/^[\s\u0085]+|[\s\u0085]+$/g, '');
    for (const [output, ordinary] of [
      [identifier, ORDINARY_IDENTIFIER],
      [phrase, ORDINARY_PHRASE],
    ] as const) {
      if (FINGERPRINT.test(output) && output !== trimmed) continue;
      expect(output).toBe(trimmed);
      expect(output).toMatch(ordinary);
    }
    for (const output of [identifier, phrase, safeCatalogModel(text, CATALOG), errorText, endpointHostClass(text)]) {
      expect(output).not.toMatch(CONTROL_OR_LINE_BREAK);
    }
    // Stable: the same input gives the same output, and error text is already in its final form.
    expect(safeIdentifier(text)).toBe(identifier);
    expect(safePhrase(text)).toBe(phrase);
    expect(safeErrorText(errorText)).toBe(errorText);
    expect(Buffer.byteLength(errorText, 'utf8')).toBeLessThanOrEqual(203);
  });
});
