import { execFile } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BUNDLED_BASE_PROMPT } from '@cw/core';
import { CW_BIN, FAKE_KEY, useCwHomes } from './support/cw-fixture.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { runCw } from './support/run-cw.js';
import { withoutNoSandboxNotice } from './support/require-bubblewrap.js';

const execFileAsync = promisify(execFile);
const home = useCwHomes();

describe('cw as a new user runs it', () => {
  it('previews the default route as a separate process with no config, network or key', async () => {
    const folder = await home();
    const env = { ...process.env, CW_HOME: folder, DEEPSEEK_API_KEY: '' };
    const { stdout } = await execFileAsync(process.execPath, [CW_BIN, 'preview-request', 'json', '--prompt', 'hello'], {
      env,
    });
    expectValidManifest(stdout);
    const manifest = JSON.parse(stdout) as {
      route: { exact: { dialect: string; route_id: string } };
      body: { exact: { body_sha256: string } };
    };
    expect(manifest.route.exact.route_id).toBe('deepseek');
    expect(manifest.route.exact.dialect).toBe('chat-completions');
    expect(manifest.body.exact.body_sha256).toMatch(/^[0-9a-f]{64}$/);
    // Preview writes nothing, not even the sessions folder.
    expect(await readdir(folder)).toEqual([]);
  });

  it('keeps a --help inside the prompt as prompt text, and still answers --help before it', async () => {
    const folder = await home();
    const env = { ...process.env, CW_HOME: folder };
    const asPrompt = await execFileAsync(
      process.execPath,
      [CW_BIN, 'preview-request', 'json', '--prompt', 'how', 'do', 'I', 'use', '--help'],
      { env },
    );
    const manifest = JSON.parse(asPrompt.stdout) as {
      session: { hypothetical_prompt_supplied: boolean };
      body: { exact: unknown };
    };
    expect(manifest.session.hypothetical_prompt_supplied).toBe(true);
    expect(manifest.body.exact).toBeDefined();
    const help = await execFileAsync(process.execPath, [CW_BIN, 'preview-request', '--help'], { env });
    expect(help.stdout).toContain('USAGE');
  });

  it('rejects an unknown argument with exit code 2, mentions --prompt and does not echo it', async () => {
    await home();
    const result = await runCw(['preview-request', 'nope']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--prompt');
    expect(result.stderr).not.toContain('nope');
    expect(result.stdout).toBe('');
  });

  it('answers the aliases dryrun and preview_request with the same manifest', async () => {
    await home();
    const outputs = [];
    // One at a time: runCw captures the process's stdout, which concurrent runs would share.
    for (const id of ['preview-request', 'dryrun', 'preview_request'])
      outputs.push(await runCw([id, 'json', '--prompt', 'same']));
    for (const output of outputs) expect(output.exitCode).toBe(0);
    expect(new Set(outputs.map((output) => output.stdout)).size).toBe(1);
  });

  it('without --prompt publishes typed-unavailable sections with no fields', async () => {
    await home();
    const { stdout, exitCode } = await runCw(['preview-request', 'json']);
    expect(exitCode).toBe(0);
    expectValidManifest(stdout);
    const manifest = JSON.parse(stdout) as Record<string, unknown>;
    for (const section of ['route', 'tools', 'body']) {
      expect(manifest[section]).toEqual({ unavailable: { reason: 'no-hypothetical-prompt-supplied', detail: null } });
    }
    for (const field of [
      'provider_id',
      'route_id',
      'dialect',
      'endpoint_fingerprint',
      'wire_model',
      'billing',
      'body_sha256',
    ]) {
      expect(stdout).not.toContain(`"${field}"`);
    }
  });

  it('base-prompt prints exactly the bundled base prompt bytes', async () => {
    await home();
    const { stdout, exitCode } = await runCw(['preview-request', 'base-prompt']);
    expect(exitCode).toBe(0);
    expect(stdout).toBe(BUNDLED_BASE_PROMPT);
  });

  it('describes the blocking entry point when --blocking comes before --prompt', async () => {
    await home();
    const streaming = JSON.parse((await runCw(['preview-request', 'json', '--prompt', 'x'])).stdout) as {
      body: { exact: { body_sha256: string } };
      route: { exact: { body_stream_field: unknown } };
    };
    const blocking = JSON.parse(
      (await runCw(['preview-request', 'json', '--blocking', '--prompt', 'x'])).stdout,
    ) as typeof streaming;
    expectValidManifest(streaming);
    expectValidManifest(blocking);
    expect(streaming.route.exact.body_stream_field).toBe(true);
    expect(blocking.route.exact.body_stream_field).toBeNull();
    expect(blocking.body.exact.body_sha256).not.toBe(streaming.body.exact.body_sha256);
  });
});

describe('bad input gets one clear line and a non-zero exit', () => {
  it('a config that is not JSON names the file', async () => {
    const folder = await home();
    await writeFile(join(folder, 'config.json'), '{ "route": ');
    const result = await runCw(['preview-request', 'json', '--prompt', 'x']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^cw: config\.json:1:12: not valid JSON: a value is expected\n/);
    expect(result.stdout).toBe('');
  });

  it('a config field of the wrong shape names the file and the field', async () => {
    await home({
      routes: {
        local: { provider: 'custom', dialect: 'chat-completions', base_url: 'ftp://example.test/v1', model: 'm' },
      },
    });
    const result = await runCw(['preview-request', 'json', '--prompt', 'x']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'cw: config.json:1:81: routes.local.base_url: must be a valid url (http or https); found a string\n',
    );
  });

  it('an unknown route in config is a typed route-plan failure in the preview', async () => {
    await home({ route: 'no-such-route' });
    const { stdout } = await runCw(['preview-request', 'json', '--prompt', 'x']);
    expectValidManifest(stdout);
    const manifest = JSON.parse(stdout) as { route: { unavailable: { reason: string } } };
    expect(manifest.route.unavailable.reason).toBe('route-plan-failed');
  });

  it('cw send with the key variable unset names the variable and writes nothing', async () => {
    const folder = await home({
      route: 'local',
      routes: {
        local: {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: 'http://127.0.0.1:9/v1',
          model: 'm',
          api_key_env: 'CW_TEST_UNSET_KEY',
        },
      },
    });
    delete process.env['CW_TEST_UNSET_KEY'];
    const result = await runCw(['send', '--prompt', 'hello']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('CW_TEST_UNSET_KEY');
    expect(await readdir(folder)).toEqual(['config.json']);
  });

  it('names a key variable that carries the api_key marker, since it is what the user must set', async () => {
    await home({ route: 'moonshot' });
    const saved = process.env['MOONSHOT_API_KEY'];
    delete process.env['MOONSHOT_API_KEY'];
    try {
      const result = await runCw(['send', '--prompt', 'hello']);
      expect(result.exitCode).toBe(1);
      expect(withoutNoSandboxNotice(result.stderr).split('\n')[0]).toBe(
        'cw: set the environment variable MOONSHOT_API_KEY to the API key of this route; nothing was sent',
      );
    } finally {
      if (saved !== undefined) process.env['MOONSHOT_API_KEY'] = saved;
    }
  });

  it('an invalid enum value lists the values config.json accepts', async () => {
    await home({ reasoning: 'extreme' });
    const result = await runCw(['preview-request', '--prompt', 'x']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'cw: config.json:1:14: reasoning: not an accepted value; found "extreme"; accepted: off, minimal, low, medium, high, xhigh, max, auto\n',
    );
  });

  it('a hostile route key in a config error is fingerprinted, the field is still named', async () => {
    const hostile = `sk-test-${'4'.repeat(24)}`;
    await home({
      routes: {
        [hostile]: { provider: 'custom', dialect: 'chat-completions', base_url: 'ftp://example.test', model: 'm' },
      },
    });
    const result = await runCw(['preview-request', '--prompt', 'x']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /^cw: config\.json:1:\d+: routes\[sha256:[0-9a-f]{12}\]\.base_url: must be a valid url/,
    );
    expect(result.stderr).not.toContain(hostile);
  });

  it('cw send without --prompt is a usage error', async () => {
    await home();
    const result = await runCw(['send']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--prompt');
  });

  it('never prints the key even when the route fails before sending', async () => {
    await home({
      route: 'local',
      routes: {
        local: {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: 'http://127.0.0.1:9/v1',
          model: 'm',
          api_key_env: 'CW_TEST_SET_KEY',
        },
      },
    });
    process.env['CW_TEST_SET_KEY'] = FAKE_KEY;
    try {
      const result = await runCw(['send', '--prompt', 'hello']);
      expect(result.exitCode).toBe(1);
      expect(`${result.stdout}${result.stderr}`).not.toContain(FAKE_KEY);
      expect(result.stderr).toContain('could not reach');
    } finally {
      delete process.env['CW_TEST_SET_KEY'];
    }
  });
});
