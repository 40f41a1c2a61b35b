// The command line as people use it, end to end on the BUILT CLI (run `npm run build` first) as a
// child process against a scripted model on 127.0.0.1: route, model and reasoning flags that preview
// and send plan alike, the prompt from stdin, flag errors that name the flag (never a secret), and
// exit codes with JSON errors. Sessions have their own file: test/sessions-cli.test.ts.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CW_BIN, FAKE_KEY, REPO_ROOT } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { type ScriptedModel, useScriptedModels } from './support/scripted-model.js';
import { type CwExit, cwEnv, runCwChild, spawnCw } from './support/spawn-cw.js';

const KEY_ENV = 'CW_FLAGS_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
const SECRET = 'sk-live-0000000000000000000000000000abcd';

interface Manifest {
  readonly session: Record<string, unknown>;
  readonly route: { exact?: Record<string, unknown> };
  readonly body: { exact?: { body_sha256: string } };
}

/** A home whose active route `fault` (model `m`) and second route `other` (model `m2`) both reach `model`. */
async function twoRouteHome(model: ScriptedModel): Promise<string> {
  const route = (name: string) => ({
    provider: 'custom',
    dialect: model.dialect,
    base_url: `${model.origin}/v1`,
    model: name,
    api_key_env: KEY_ENV,
  });
  // The prompt is checked as typed, and cw runs in this repository, whose tree changes: no turn context.
  return models.home(model, {
    routes: { fault: route('m'), other: route('m2') },
    approval: 'never',
    context: { turn_context: false },
  });
}

async function previewJson(env: Record<string, string>, args: readonly string[]): Promise<Manifest> {
  const run = await runCwChild(['preview-request', 'json', ...args], env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Manifest;
}

/** Runs the built cw with `input` on a real pipe (a shell `|`), as `printf … | cw …` does. */
function runPiped(args: readonly string[], input: string, env: Record<string, string>): Promise<CwExit> {
  return new Promise((resolve, reject) => {
    const quoted = args.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('sh', ['-c', `cat | "${process.execPath}" "${CW_BIN}" ${quoted}`], {
      env: cwEnv(env),
      cwd: REPO_ROOT,
      stdio: 'pipe',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    child.stdin.end(input);
  });
}

/** Runs the built cw with `input` written to its stdin (`--prompt -` reads it). */
async function runWithStdin(args: readonly string[], input: Buffer, env: Record<string, string>): Promise<CwExit> {
  const running = spawnCw(args, env);
  running.child.stdin?.end(input);
  return running.done;
}

describe('-r/--route, -m/--model and --reasoning: preview and send plan the same request', () => {
  it('-r and --reasoning override config; the send carries the very body the preview hashed', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'done' } });
    const home = await twoRouteHome(model);
    const env = models.envFor(home);
    const manifest = await previewJson(env, ['-r', 'other', '--reasoning', 'high', '--prompt', 'hi']);
    expect(manifest.session['requested_route']).toBe('other');
    expect(manifest.session['requested_reasoning']).toBe('high');
    expect(manifest.route.exact?.['route_id']).toBe('other');
    const sent = await runCwChild(['send', '--route', 'other', '--reasoning=high', '--prompt', 'hi'], env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.canonicalSha256).toBe(manifest.body.exact?.body_sha256);
    expect((JSON.parse(model.requests[0]?.received.body ?? '{}') as { model: string }).model).toBe('m2');
    // Without the flags, config's route is planned again: a different request.
    const plain = await previewJson(env, ['--prompt', 'hi']);
    expect(plain.session['requested_route']).toBe('fault');
  });

  it('-m route/model selects both; a model id whose first part is no route stays whole', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'one' } }, { reply: { text: 'two' } });
    const home = await twoRouteHome(model);
    const env = models.envFor(home);
    const both = await previewJson(env, ['-m', 'other/m3', '--prompt', 'hi']);
    expect(both.session['requested_route']).toBe('other');
    expect(both.route.exact?.['wire_model']).toBe('m3');
    const sent = await runCwChild(['send', '-m', 'other/m3', '--prompt', 'hi'], env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(model.requests[0]?.canonicalSha256).toBe(both.body.exact?.body_sha256);
    expect((JSON.parse(model.requests[0]?.received.body ?? '{}') as { model: string }).model).toBe('m3');

    const whole = await previewJson(env, ['-m', 'meta-llama/Llama-3.3-70B-Instruct', '--prompt', 'hi']);
    expect(whole.session['requested_route']).toBe('fault');
    const second = await runCwChild(['send', '-m', 'meta-llama/Llama-3.3-70B-Instruct', '--prompt', 'hi'], env);
    expect(second.code, second.stderr).toBe(0);
    expect((JSON.parse(model.requests[1]?.received.body ?? '{}') as { model: string }).model).toBe(
      'meta-llama/Llama-3.3-70B-Instruct',
    );
  });

  it('a flag typed after --prompt is prompt text: preview and send say so on stderr and send the prompt as typed', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'done' } });
    const home = await twoRouteHome(model);
    const env = models.envFor(home);
    const warning =
      'cw: warning: -r at the end of the prompt was read as prompt text, not as a flag; flags go before --prompt\n';
    const previewed = await runCwChild(['preview-request', 'json', '--prompt', 'hi', '-r', 'other'], env);
    expect(previewed.code, previewed.stderr).toBe(0);
    expect(previewed.stderr).toBe(warning);
    const manifest = JSON.parse(previewed.stdout) as Manifest;
    expect(manifest.session['requested_route']).toBe('fault');
    const sent = await runCwChild(['send', '--prompt', 'hi', '-r', 'other'], env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toBe(warning);
    // The prompt went as typed, on the configured route, in the body the preview hashed.
    const body = JSON.parse(model.requests[0]?.received.body ?? '{}') as { model: string; messages: unknown[] };
    expect(body.model).toBe('m');
    expect(JSON.stringify(body.messages.at(-1))).toContain('"hi -r other"');
    expect(model.requests[0]?.canonicalSha256).toBe(manifest.body.exact?.body_sha256);
    // Flags before --prompt, or inside one quoted prompt word, draw no warning.
    const quiet = await runCwChild(['preview-request', 'json', '--prompt', 'what does -r mean'], env);
    expect(quiet.stderr).toBe('');
  });

  it('--no-tool-runs is in the help and --no-tools is not; the old name still works, with a warning', async () => {
    const help = await runCwChild(['send', '--help'], {});
    expect(help.stdout).toContain('--no-tool-runs');
    expect(help.stdout).not.toContain('--no-tools');
    const model = await models.model('chat-completions', { reply: { text: 'done' } });
    const env = models.envFor(await twoRouteHome(model));
    const sent = await runCwChild(['send', '--no-tools', '--prompt', 'hi'], env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toContain('cw: warning: --no-tools is now --no-tool-runs');
  });

  it('every flag is in the help, in a FLAGS section', async () => {
    for (const command of ['send', 'preview-request']) {
      const help = await runCwChild([command, '--help'], {});
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('FLAGS');
      for (const flag of ['-r, --route', '-m, --model', '--reasoning', '-s, --session', '-n, --new', '-c, --continue'])
        expect(help.stdout, `${command} ${flag}`).toContain(flag);
    }
  });
});

describe('flag errors name the flag, never what was typed as its value; exit 2', () => {
  it('a misspelt flag is named with a did-you-mean', async () => {
    const run = await runCwChild(['send', '--promt', 'hi'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^cw: Unknown flag `--promt`\. Did you mean --prompt\?/);
  });

  it('a secret typed as a flag, or as a flag value, is never printed', async () => {
    for (const argv of [
      ['send', `--${SECRET}`, '--prompt', 'x'],
      ['preview-request', `--${SECRET}=1`],
      ['send', '--reasoning', SECRET, '--prompt', 'x'],
      ['send', '--json', '--approval', SECRET, '--prompt', 'x'],
      ['preview-request', SECRET],
    ]) {
      const run = await runCwChild(argv, {});
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr + run.stdout).not.toContain('sk-live');
    }
  });

  it('an option flag lists what it accepts; -s, -n and -c exclude each other', async () => {
    const reasoning = await runCwChild(['preview-request', '--reasoning', 'hgih', '--prompt', 'x'], {});
    expect(reasoning.code).toBe(2);
    expect(reasoning.stderr).toContain('`--reasoning` takes one of off, minimal, low, medium, high, xhigh, max, auto.');
    const both = await runCwChild(['send', '-s', 'a', '-n', '--prompt', 'x'], {});
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('each pick the session: give one');
  });

  it('with --json a usage error is one JSON object on stdout, exit 2', async () => {
    const run = await runCwChild(['send', '--json', '--max-retries', '11', '--prompt', 'x'], {});
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toEqual({
      error: {
        kind: 'usage',
        status: null,
        message: '`--max-retries` takes a whole number from 0 to 10.',
        exit_code: 2,
        provider: null,
      },
    });
    const routes = await runCwChild(['routes', '--json', '--jsn'], {});
    expect(routes.code).toBe(2);
    expect((JSON.parse(routes.stdout) as { error: { exit_code: number } }).error.exit_code).toBe(2);
  });
});

describe('the prompt from stdin', () => {
  it('--prompt - reads stdin byte for byte: the same request as the prompt typed out', async () => {
    const model = await models.model('chat-completions');
    const env = models.envFor(await models.home(model));
    const text = '  line one\n\tline two \n';
    const typed = await previewJson(env, ['--prompt', text]);
    const read = await runWithStdin(['preview-request', 'json', '--prompt', '-'], Buffer.from(text), env);
    expect(read.code, read.stderr).toBe(0);
    expect((JSON.parse(read.stdout) as Manifest).body.exact?.body_sha256).toBe(typed.body.exact?.body_sha256);
  });

  it('a piped stdin without --prompt is the prompt; cw send sends it', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'piped' } });
    const home = await models.home(model, { approval: 'never' });
    const env = models.envFor(home);
    const typed = await previewJson(env, ['--prompt', 'from a pipe']);
    const preview = await runPiped(['preview-request', 'json'], 'from a pipe', env);
    expect(preview.code, preview.stderr).toBe(0);
    expect((JSON.parse(preview.stdout) as Manifest).body.exact?.body_sha256).toBe(typed.body.exact?.body_sha256);
    const sent = await runPiped(['send'], 'from a pipe', env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toBe('piped\n');
    expect(model.requests[0]?.canonicalSha256).toBe(typed.body.exact?.body_sha256);
  });

  it('NUL bytes, invalid UTF-8, more than 1 MiB and an empty stdin are refused with exit 2; nothing is written', async () => {
    const model = await models.model('chat-completions');
    const home = await models.home(model);
    const env = models.envFor(home);
    const before = await homeBytes(home);
    const cases: [Buffer, string][] = [
      [Buffer.from('a\u0000b'), 'NUL byte'],
      [Buffer.from([0x66, 0xff, 0x6f]), 'not valid UTF-8'],
      [Buffer.alloc(1024 * 1024 + 1, 0x61), 'larger than 1 MiB'],
      [Buffer.alloc(0), 'read nothing from stdin'],
    ];
    for (const [input, message] of cases) {
      const run = await runWithStdin(['send', '--prompt', '-'], input, env);
      expect(run.code, message).toBe(2);
      expect(run.stderr).toContain(message);
    }
    expect(model.requests).toHaveLength(0);
    expect(await homeBytes(home)).toEqual(before);
  });
});

describe('commands cw does not have, and cw plugins', () => {
  it('a mistyped command gets a did-you-mean and exit 2; a key typed as a command is never printed', async () => {
    const typo = await runCwChild(['sned', '--prompt', 'hi'], {});
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('cw: sned is not a cw command. Did you mean send? Run cw help for the commands.\n');
    const key = await runCwChild([SECRET], {});
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('is not a cw command');
    expect(key.stderr + key.stdout).not.toContain('sk-live');
  });

  it('cw plugins lists the built-ins marked core, and prints no path', async () => {
    const text = await runCwChild(['plugins'], {});
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^@cw\/provider-deepseek +0\.1\.0 +\(core\)$/m);
    const json = await runCwChild(['plugins', '--json'], {});
    const listed = JSON.parse(json.stdout) as { plugins: { name: string; kind: string }[] };
    expect(listed.plugins.length).toBeGreaterThanOrEqual(15);
    expect(listed.plugins.every((plugin) => plugin.kind === 'core')).toBe(true);
    expect(json.stdout).not.toContain(REPO_ROOT);
    expect(json.stdout).not.toMatch(/"\/|node_modules/);
  });
});
