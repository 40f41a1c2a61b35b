import { describe, expect, it } from 'vitest';
import { OUTBOUND_SECRET_MARKER as M, replaceOutboundSecrets } from './outbound-secrets.js';

const FAKE_SK = `sk-test-${'0'.repeat(32)}`;
const FAKE_GHP = `ghp_FAKE0test${'0'.repeat(28)}`;

describe('replaceOutboundSecrets', () => {
  it.each([
    [`use api_key=${FAKE_SK} for the call`, `use api_key=${M} for the call`, 1],
    [`token ${FAKE_GHP} expired`, `token ${M} expired`, 1],
    ['password: hunter2', `password: ${M}`, 1],
    ['export OPENAI_API_KEY=abcdef123456', `export OPENAI_API_KEY=${M}`, 1],
    ['{"client_secret": "s3cr3t-value"}', `{"client_secret": "${M}"}`, 1],
    ['curl "https://x.example/v1?api_key=abc123def&x=1"', `curl "https://x.example/v1?api_key=${M}&x=1"`, 1],
    ['Authorization: Bearer opaque0value0here', `Authorization: ${M}`, 1],
    [`key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEFAKE\n-----END RSA PRIVATE KEY-----\nafter`, `key:\n${M}\nafter`, 1],
    [`two ${FAKE_SK} and ${FAKE_GHP}`, `two ${M} and ${M}`, 2],
  ])('replaces the secret in %j', (input, output, count) => {
    expect(replaceOutboundSecrets(input)).toEqual({ text: output, count });
  });

  it.each([
    'max_tokens: 4096',
    'tokenizer: o200k_base',
    'const token = readToken();',
    'apiKey = process.env.API_KEY',
    '"Authorization": "Bearer ${env:GITHUB_TOKEN}"',
    'Fix the token: parser crashes on empty input',
    'the risk-level and sk-learn docs',
    'password: true',
  ])('leaves ordinary text and code alone: %j', (input) => {
    expect(replaceOutboundSecrets(input)).toEqual({ text: input, count: 0 });
  });

  it('is idempotent: a marker is never replaced again', () => {
    const once = replaceOutboundSecrets(`password=hunter22 ${FAKE_SK}`);
    expect(replaceOutboundSecrets(once.text)).toEqual({ text: once.text, count: 0 });
  });

  // The assignment passes are skipped on text holding none of the words a secret key ends in, so
  // every such ending, in every spelling a key takes, must still be found.
  const ENDINGS = ['token', 'secret', 'password', 'passwd', 'apikey', 'authorization', 'credential'];
  const PAIRS = [
    ['api', 'key'],
    ['access', 'key'],
    ['secret', 'key'],
    ['private', 'key'],
    ['client', 'secret'],
    ['auth', 'token'],
  ];
  const spellings = (words: readonly string[]): string[] => {
    const cap = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
    return [
      words.join('_'),
      words.join('_').toUpperCase(),
      words.join('-'),
      words.join('.'),
      words.map((word, index) => (index === 0 ? word : cap(word))).join(''),
      words.map(cap).join('-'),
    ];
  };
  const keys = [...ENDINGS.map((word) => ['db', word]), ...PAIRS].flatMap(spellings);

  it.each(keys)('replaces the value assigned to %s, in every assignment form', (key) => {
    for (const [input, output] of [
      [`${key}=Zq8vLw3nRt`, `${key}=${M}`],
      [`  ${key}: Zq8vLw3nRt`, `  ${key}: ${M}`],
      [`{"${key}": "Zq8vLw3nRt"}`, `{"${key}": "${M}"}`],
      [`run --${key}=Zq8vLw3nRt now`, `run --${key}=${M} now`],
    ]) {
      expect(replaceOutboundSecrets(input as string)).toEqual({ text: output, count: 1 });
    }
  });
});
