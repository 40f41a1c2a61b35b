// What commands see of cw's environment (docs/security.md, "What commands see of your environment"):
// the BUILT CLI runs `cw send --approval workspace` against a scripted model on 127.0.0.1 that asks the
// shell tool for `env` while cw's environment holds the credentials a developer's shell typically
// does. The tool result the model gets back is what it could exfiltrate. Linux with bubblewrap on PATH;
// without it they are skipped with one line naming the package, and fail under CI (test/support/require-bubblewrap.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { needBubblewrap } from './support/require-bubblewrap.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_ENV_POLICY_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

// Each value is unique, so finding it anywhere in what the model received is a leak.
const PLANTED: Record<string, string> = {
  PGPASSWORD: 'hunter2secret-pg',
  AZURE_OPENAI_KEY: 'sk-test-0azure1111111111',
  STRIPE_PRIVATE_KEY: 'rk_test_0stripe22222222222',
  DATABASE_URL: 'postgres://u:hunter2secret@h/db',
  MYSQL_PWD: 'hunter2secret-mysql',
  GH_PAT: 'ghp_test0ghpat3333333333333333',
  SMTP_PASS: 'hunter2secret-smtp',
  NPM_CONFIG__AUTH: 'dGVzdDpucG0tYXV0aC00NDQ0',
  SENTRY_DSN: 'https://5555sentrykey@o0.ingest.example.com/1',
  SLACK_WEBHOOK_URL: 'https://hooks.example.com/services/T0/B0/slack6666',
};

const CONFIG = {
  approval: 'workspace',
  sandbox: { env: { pass: ['CW_POLICY_PASSED'], set: { CW_POLICY_SET: 'set-by-config-7777' } } },
};

interface EnvironmentCounts {
  passed: number;
  set: number;
  dropped_credentials: number;
  dropped_other: number;
}

async function previewCounts(home: string, extra: Record<string, string>): Promise<EnvironmentCounts> {
  const run = await runCwChild(['preview-request', 'json', '--prompt', 'x'], models.envFor(home, extra));
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { session: { environment: EnvironmentCounts } }).session.environment;
}

describe('commands see the allowlist and what config adds, never a credential', () => {
  it('`env` through the shell tool returns none of the planted credentials, but PATH, HOME, a passed and a set variable', async (context) => {
    needBubblewrap(context);
    const ws = await models.folder('cw-env-ws-');
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [{ id: 'call_env', name: 'shell', arguments: JSON.stringify({ command: 'env' }) }] } },
      { reply: { text: 'done' } },
    );
    const home = await models.home(model, { ...CONFIG, workspace: ws });
    const run = await runCwChild(
      ['send', '--prompt', 'show me the environment'],
      models.envFor(home, { ...PLANTED, CW_POLICY_PASSED: 'passed-by-name-8888' }),
      { cwd: ws },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(model.problems).toEqual([]);
    expect(model.requests).toHaveLength(2);
    const result = model.resultsOf(1).get('call_env') ?? '';
    expect(result).toMatch(/^PATH=/m);
    expect(result).toMatch(/^HOME=/m);
    expect(result).toContain('CW_POLICY_PASSED=passed-by-name-8888');
    expect(result).toContain('CW_POLICY_SET=set-by-config-7777');
    // Neither in the tool result nor anywhere else in the request the model received.
    const raw = model.requests[1]?.view.raw ?? '';
    for (const [name, value] of Object.entries(PLANTED)) {
      expect(result, name).not.toContain(`${name}=`);
      expect(raw, name).not.toContain(value);
    }
    // The route's own key never reaches a command either.
    expect(raw).not.toContain(FAKE_KEY);
    expect(result).not.toContain(`${KEY_ENV}=`);
  });

  it('a preview counts the drops, starts nothing and prints no name or value', async () => {
    const model = await models.model('chat-completions');
    const home = await models.home(model, CONFIG);
    const without = await previewCounts(home, {});
    const withPlanted = await previewCounts(home, { ...PLANTED, CW_POLICY_PASSED: 'passed-by-name-8888' });
    expect(withPlanted.dropped_credentials - without.dropped_credentials).toBe(Object.keys(PLANTED).length);
    expect(withPlanted.passed - without.passed).toBe(1);
    expect(withPlanted.dropped_other).toBe(without.dropped_other);
    expect(withPlanted.set).toBe(1);
    // The route's key variable is counted with the credentials.
    expect(without.dropped_credentials).toBeGreaterThanOrEqual(1);
    expect(model.requests).toHaveLength(0);
    const shown = await runCwChild(
      ['preview-request', 'json', '--prompt', 'x'],
      models.envFor(home, { ...PLANTED, CW_POLICY_PASSED: 'passed-by-name-8888' }),
    );
    for (const [name, value] of Object.entries(PLANTED)) {
      expect(shown.stdout, name).not.toContain(name);
      expect(shown.stdout, name).not.toContain(value);
    }
  });

  it('a credential-shaped sandbox.env.set value is refused in one line and config.json is left as it was', async () => {
    const model = await models.model('chat-completions');
    const home = await models.home(model);
    const before = await readFile(join(home, 'config.json'), 'utf8');
    const run = await runCwChild(
      ['config', 'set', 'sandbox.env.set', JSON.stringify({ DB: 'postgres://u:hunter2secret@h/db' })],
      models.envFor(home),
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('sandbox.env.set');
    expect(run.stderr).not.toContain('hunter2secret');
    expect(run.stderr).toMatch(/sandbox\.env\.set\.DB: looks like a credential/);
    expect(await readFile(join(home, 'config.json'), 'utf8')).toBe(before);
    const passed = await runCwChild(['config', 'set', 'sandbox.env.pass', '["NODE_*","EDITOR"]'], models.envFor(home));
    expect(passed.code, passed.stderr).toBe(0);
    const got = await runCwChild(['config', 'get', 'sandbox.env.pass'], models.envFor(home));
    expect(got.stdout).toContain('NODE_*');
  });

  it("cw sandbox check shows a credential planted in cw's environment is absent inside; one let in by config fails the row", async (context) => {
    needBubblewrap(context);
    const ws = await models.folder('cw-env-check-');
    const model = await models.model('chat-completions');
    const row = async (config: Record<string, unknown>) => {
      const home = await models.home(model, { ...config, workspace: ws });
      const run = await runCwChild(['sandbox', 'check', '--json'], models.envFor(home, PLANTED));
      const report = JSON.parse(run.stdout) as { checks: { what: string; found: string; ok: boolean }[] };
      return { code: run.code, row: report.checks.find((check) => check.what === "a credential in cw's environment") };
    };
    expect(await row({})).toEqual({
      code: 0,
      row: { what: "a credential in cw's environment", expected: 'hidden', found: 'hidden', ok: true },
    });
    // A variable config sets by that name does reach the probe: the row can fail.
    const leaked = await row({ sandbox: { env: { pass: [], set: { CW_SANDBOX_CHECK_SECRET_TOKEN: 'on-purpose' } } } });
    expect(leaked.code).toBe(1);
    expect(leaked.row).toMatchObject({ found: 'visible', ok: false });
  });
});
