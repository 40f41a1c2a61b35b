import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeCatalogModel, safeIdentifier, safePhrase } from './safe-label.js';
import { safeErrorText } from './safe-error-text.js';
import { terminalSafe } from './terminal-safe.js';

const RUNS = { numRuns: 10_000 } as const;

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM = `${UPPER}abcdefghijklmnopqrstuvwxyz0123456789`;
const charsFrom = (alphabet: string): fc.Arbitrary<string> => fc.constantFrom(...alphabet.split(''));

// Fake secrets in three well-known shapes, built at run time. `body` is the random part, which must
// never reach the output in any form longer than the prefix.
interface PlantedSecret {
  readonly secret: string;
  readonly body: string;
}
const plantedSecret: fc.Arbitrary<PlantedSecret> = fc.oneof(
  fc
    .string({ unit: charsFrom(ALNUM), minLength: 24, maxLength: 48 })
    .map((body) => ({ secret: `sk-test-${body}`, body })),
  fc.string({ unit: charsFrom(UPPER), minLength: 16, maxLength: 16 }).map((body) => ({ secret: `AKIA${body}`, body })),
  fc.string({ unit: charsFrom(ALNUM), minLength: 36, maxLength: 36 }).map((body) => ({ secret: `ghp_${body}`, body })),
);

// Surrounding text: random Unicode mixed with the pieces the rules key on (separators, quotes, URL
// and path syntax, sensitive words, controls, bidi characters, our own markers).
const piece: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.constantFrom(
    ' ',
    '  ',
    '\n',
    '\r\n',
    '\t',
    '\u0085',
    '\u2028',
    ':',
    '=',
    ': ',
    '/',
    '~/',
    '\\',
    '"',
    "'",
    '`',
    '@',
    '://',
    'https://',
    'http://h.example:8080/',
    '?',
    '#',
    '.',
    '..',
    ',',
    ';',
    '(',
    ')',
    '[',
    ']',
    '<',
    '>',
    '-',
    '_',
    'token',
    'token=',
    'api_key:',
    'password=',
    'Authorization: Bearer ',
    'secret',
    'sk-',
    'ghp_',
    'AKIA',
    'error',
    'failed',
    'x',
    '<redacted>',
    '<path-redacted>',
    '<unavailable>',
    '\u2026',
    '\u001b[31m',
    '\u0007',
    '\u0000',
    '\u202e',
    '\u200b',
    '\ufeff',
    '\ud800',
    'r\u00e9sum\u00e9',
    '\u79d8\u5bc6',
  ),
);
const text: fc.Arbitrary<string> = fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join(''));
const longText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: text },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.oneof(piece, fc.constantFrom('word ', 'abc.def ', 'ok, ')), { minLength: 40, maxLength: 160 })
      .map((pieces) => pieces.join('')),
  },
);

const CATALOG: ReadonlySet<string> = new Set(['qwen/qwen3.6-flash']);
const labels = (value: string): string[] => [
  safeIdentifier(value),
  safeCatalogModel(value, CATALOG),
  safePhrase(value),
];
const utf8Length = (value: string): number => Buffer.byteLength(value, 'utf8');
const independentFingerprint = (value: string): string =>
  `sha256:${createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 12)}`;

describe('redaction properties', () => {
  it('a planted secret never reaches safeErrorText output', () => {
    fc.assert(
      fc.property(text, plantedSecret, text, (before, { secret, body }, after) => {
        const output = safeErrorText(before + secret + after);
        expect(output).not.toContain(secret);
        expect(output).not.toContain(body);
      }),
      RUNS,
    );
  });

  it('a planted secret never reaches any label', () => {
    fc.assert(
      fc.property(text, plantedSecret, text, (before, { secret, body }, after) => {
        for (const output of labels(before + secret + after)) {
          expect(output).not.toContain(secret);
          expect(output).not.toContain(body);
        }
      }),
      RUNS,
    );
  });

  it('safeErrorText is idempotent', () => {
    fc.assert(
      fc.property(longText, (value) => {
        const once = safeErrorText(value);
        expect(safeErrorText(once)).toBe(once);
      }),
      RUNS,
    );
  });

  it('terminalSafe is idempotent and leaves nothing that drives the terminal', () => {
    fc.assert(
      fc.property(longText, (value) => {
        const once = terminalSafe(value);
        expect(terminalSafe(once)).toBe(once);
        expect(once).not.toMatch(
          /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/,
        );
      }),
      RUNS,
    );
  });

  it('a label is either the trimmed value or a stable fingerprint of the untrimmed value', () => {
    fc.assert(
      fc.property(text, (value) => {
        for (const output of labels(value)) {
          expect(labels(value)).toContain(output);
          if (/^sha256:[0-9a-f]{12}$/.test(output) && !value.includes(output))
            expect(output).toBe(independentFingerprint(value));
          else expect(value).toContain(output);
        }
      }),
      RUNS,
    );
  });

  it('outputs are bounded: labels at most 80 bytes, error text at most 200 bytes plus an ellipsis', () => {
    fc.assert(
      fc.property(longText, (value) => {
        for (const output of labels(value)) expect(utf8Length(output)).toBeLessThanOrEqual(80);
        const errorText = safeErrorText(value);
        expect(utf8Length(errorText)).toBeLessThanOrEqual(203);
        expect(errorText).toMatch(/^[\u0020-\u007e\u2026]+$/);
      }),
      RUNS,
    );
  });
});
