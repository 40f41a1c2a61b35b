import { describe, expect, it } from 'vitest';
import {
  ALLOWLIST_ONLY,
  commandEnvironment,
  isCredentialName,
  isCredentialValue,
  toolEnvironment,
} from './tool-environment.js';

// The variables an ordinary developer's shell holds that a command must never see.
const CREDENTIALS: Record<string, string> = {
  PGPASSWORD: 'hunter2secret',
  AZURE_OPENAI_KEY: 'sk-test-0azure000000000000',
  STRIPE_PRIVATE_KEY: 'rk_test_000000000000000000',
  DATABASE_URL: 'postgres://u:hunter2secret@h/db',
  MYSQL_PWD: 'hunter2secret',
  GH_PAT: 'ghp_test0000000000000000000000',
  SMTP_PASS: 'hunter2secret',
  NPM_CONFIG__AUTH: 'dGVzdDp0ZXN0',
  SENTRY_DSN: 'https://0000@o0.ingest.example.com/1',
  SLACK_WEBHOOK_URL: 'https://hooks.example.com/services/T000/B000/XXXX',
};

describe('isCredentialName', () => {
  it.each(Object.keys(CREDENTIALS).filter((name) => name !== 'DATABASE_URL'))('%s names a credential', (name) => {
    expect(isCredentialName(name)).toBe(true);
  });

  it.each(['GITHUBTOKEN', 'AWS_SECRET_ACCESS_KEY', 'OPENAI_API_KEY', 'DB-PASSWORD', 'SESSION_COOKIE', 'MY_APIKEY'])(
    '%s names a credential',
    (name) => {
      expect(isCredentialName(name)).toBe(true);
    },
  );

  it.each(['PATH', 'HOME', 'LANG', 'TERM', 'EDITOR', 'PWD', 'OLDPWD', 'TOKENIZERS_PARALLELISM', 'KEYMAP', 'MONKEY'])(
    '%s does not',
    (name) => {
      expect(isCredentialName(name)).toBe(false);
    },
  );
});

describe('isCredentialValue', () => {
  it.each([
    'sk-test-0000000000000000',
    'ghp_test0000000000000000000000',
    'postgres://u:hunter2secret@h/db',
    'redis://:pw@localhost:6379',
    'Bearer sk-test-0abcdefgh',
    '-----BEGIN OPENSSH PRIVATE KEY-----',
  ])('%s looks like a credential', (value) => {
    expect(isCredentialValue(value)).toBe(true);
  });

  it.each(['/usr/bin:/bin', 'C.UTF-8', 'xterm-256color', 'https://example.com/path', 'postgres://u@h/db', 'vim'])(
    '%s does not',
    (value) => {
      expect(isCredentialValue(value)).toBe(false);
    },
  );
});

describe('commandEnvironment', () => {
  it('drops each credential and counts it; keeps the allowlist; drops and counts the rest', () => {
    const env = {
      ...CREDENTIALS,
      PATH: '/usr/bin',
      HOME: '/home/someone',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TERM: 'xterm',
      EDITOR: 'vim',
      NODE_OPTIONS: '--inspect',
      // Benign name, credential value: dropped as a credential.
      BUILD_LABEL: 'sk-test-0000000000000000',
      // An exported shell function is code.
      BASH_FUNC_x: '() { echo hi; }',
    };
    const { env: out, counts } = commandEnvironment(env, ALLOWLIST_ONLY);
    expect(out).toEqual({ PATH: '/usr/bin', HOME: '/home/someone', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TERM: 'xterm' });
    expect(counts).toEqual({ passed: 5, set: 0, dropped_credentials: 11, dropped_other: 3 });
  });

  it('passes names and globs from sandbox.env.pass, and adds sandbox.env.set', () => {
    const env = { PATH: '/usr/bin', EDITOR: 'vim', NODE_ENV: 'test', NODE_AUTH_TOKEN: 'npm_0', CI: 'true' };
    const { env: out, counts } = commandEnvironment(env, {
      keyVariables: new Set(),
      pass: ['EDITOR', 'NODE_*'],
      set: { GIT_TERMINAL_PROMPT: '0', CI: 'false' },
    });
    // A glob never passes a credential; `set` wins over cw's own value.
    expect(out).toEqual({ PATH: '/usr/bin', EDITOR: 'vim', NODE_ENV: 'test', GIT_TERMINAL_PROMPT: '0', CI: 'false' });
    expect(counts).toEqual({ passed: 3, set: 2, dropped_credentials: 1, dropped_other: 0 });
  });

  it('passes a credential the person named exactly, but never a route key variable', () => {
    const env = { PGPASSWORD: 'local-test-db', MY_ROUTE_VAR: 'x' };
    const { env: out, counts } = commandEnvironment(env, {
      keyVariables: new Set(['MY_ROUTE_VAR']),
      pass: ['PGPASSWORD', 'MY_ROUTE_VAR'],
      set: {},
    });
    expect(out).toEqual({ PGPASSWORD: 'local-test-db' });
    expect(counts).toEqual({ passed: 1, set: 0, dropped_credentials: 1, dropped_other: 0 });
  });
});

describe('toolEnvironment', () => {
  it('drops every configured key variable even when sandbox.env.pass names it', () => {
    const env = {
      PATH: '/usr/bin',
      HOME: '/home/someone',
      DEEPSEEK_API_KEY: 'sk-test-1',
      MY_ROUTE_KEY: 'sk-test-2',
      CUSTOM_VAR_FOR_ROW: 'plain',
      GITHUB_TOKEN: 'ghp_x',
      AWS_SECRET_ACCESS_KEY: 'x',
      TOKENIZERS_PARALLELISM: 'false',
      LANG: 'C.UTF-8',
    };
    const rows = [
      { auth: { scheme: 'bearer', api_key_env: 'CUSTOM_VAR_FOR_ROW', key_header: null, headers: {} } },
    ] as const;
    const config = {
      routes: {
        mine: {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: 'http://x',
          model: 'm',
          api_key_env: 'MY_ROUTE_KEY',
        },
      },
      sandbox: { env: { pass: ['CUSTOM_VAR_FOR_ROW', 'MY_ROUTE_KEY', 'TOKENIZERS_PARALLELISM'], set: {} } },
    } as const;
    expect(toolEnvironment(env, rows, config as never)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/someone',
      TOKENIZERS_PARALLELISM: 'false',
      LANG: 'C.UTF-8',
    });
  });
});
