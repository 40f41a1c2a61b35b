// A stranger's first run (docs/cli.md, "First run"): with no key for the default route, cw says in a
// few lines what to do; `cw routes add` writes a checked route to a local server, and a custom route
// can be written field by field with `cw config set`; a preview on each route is exact. Runs the
// BUILT CLI as a child process, the way a user does (`npm run build` first).
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectValidManifest } from './support/manifest-schema.js';
import { withoutNoSandboxNotice } from './support/require-bubblewrap.js';
import { runCwChild, tempFolders } from './support/spawn-cw.js';

const folders = tempFolders();
afterAll(() => folders.cleanup());

const HINTS = [
  'cw: other routes: cw routes lists them; use one with --route <id>, or make it the default with cw config set route <id>',
  'cw: a local OpenAI-compatible server: cw routes add local --preset ollama (or llama-cpp, vllm, lm-studio), or cw routes add <id> --base-url <url> --model <model>',
];

/** stderr's lines, without the notice a machine with no sandbox adds before any send. */
function linesOf(stderr: string): string[] {
  return withoutNoSandboxNotice(stderr).trimEnd().split('\n');
}

/** A fresh cw home and plugin data folder: no config, no session, no linked plugin. */
async function fresh(): Promise<{ CW_HOME: string; CW_DATA_DIR: string }> {
  return { CW_HOME: await folders.make('cw-home-'), CW_DATA_DIR: await folders.make('cw-data-') };
}

async function configText(home: string): Promise<string | null> {
  return readFile(join(home, 'config.json'), 'utf8').catch(() => null);
}

interface RouteManifest {
  route: {
    exact?: { route_id: string; route_defined_by: string; endpoint_host_class: string; wire_model: string };
    unavailable?: { reason: string; detail: string | null };
  };
  body: { exact?: { body_wire_sha256: string } };
}

async function preview(env: Record<string, string>, route: string): Promise<RouteManifest> {
  const run = await runCwChild(['preview-request', 'json', '--route', route, '--prompt', 'hello'], env);
  expect(run.code, run.stderr).toBe(0);
  expectValidManifest(run.stdout);
  return JSON.parse(run.stdout) as RouteManifest;
}

describe('with no key for the default route', () => {
  it('cw send names the key variable, then how to list other routes and add a local one; nothing is written', async () => {
    const env = await fresh();
    const run = await runCwChild(['send', '--prompt', 'hello'], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(linesOf(run.stderr)).toEqual([
      'cw: set the environment variable DEEPSEEK_API_KEY to the API key of this route; nothing was sent',
      ...HINTS,
    ]);
    expect(await readdir(env.CW_HOME)).toEqual([]);
  });

  it('cw preview-request still works offline, with no config and no key', async () => {
    const env = await fresh();
    const run = await runCwChild(['preview-request', 'json', '--prompt', 'hello'], env);
    expect(run.code, run.stderr).toBe(0);
    expectValidManifest(run.stdout);
    expect((JSON.parse(run.stdout) as RouteManifest).route.exact?.route_id).toBe('deepseek');
  });
});

describe('cw routes add', () => {
  const presets = [
    ['ollama', 'http://localhost:11434/v1'],
    ['llama-cpp', 'http://localhost:8080/v1'],
    ['vllm', 'http://localhost:8000/v1'],
    ['lm-studio', 'http://localhost:1234/v1'],
  ] as const;

  for (const [preset, baseUrl] of presets) {
    it(`--preset ${preset} writes its base URL and dialect, and a preview on the route is exact`, async () => {
      const env = await fresh();
      const added = await runCwChild(['routes', 'add', 'local', '--preset', preset, '--model', 'coder-7b'], env);
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toBe(
        'Added route local (chat-completions) to config.json. Preview a turn on it: cw preview-request --route local; make it the default: cw config set route local\n',
      );
      expect(JSON.parse((await configText(env.CW_HOME)) ?? '{}')).toEqual({
        routes: { local: { provider: 'custom', dialect: 'chat-completions', base_url: baseUrl, model: 'coder-7b' } },
      });
      const manifest = await preview(env, 'local');
      expect(manifest.route.exact).toMatchObject({
        route_id: 'local',
        route_defined_by: 'user-config',
        endpoint_host_class: 'http loopback',
        wire_model: 'coder-7b',
      });
      expect(manifest.body.exact?.body_wire_sha256).toMatch(/^[0-9a-f]{64}$/);
    });
  }

  it('--base-url, --dialect and --key-env write a route that takes a key; --force replaces it', async () => {
    const env = await fresh();
    const first = await runCwChild(
      [
        'routes',
        'add',
        'gateway',
        '--base-url',
        'https://llm.example.com/v1',
        '--model',
        'big',
        '--key-env',
        'GATEWAY_KEY',
      ],
      env,
    );
    expect(first.code, first.stderr).toBe(0);
    const again = await runCwChild(
      [
        'routes',
        'add',
        'gateway',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--model',
        'small',
        '--dialect',
        'openai-responses',
        '--force',
      ],
      env,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse((await configText(env.CW_HOME)) ?? '{}')).toEqual({
      routes: {
        gateway: { provider: 'custom', dialect: 'openai-responses', base_url: 'http://127.0.0.1:9/v1', model: 'small' },
      },
    });
  });

  const refusals: readonly (readonly [string, readonly string[], string])[] = [
    [
      'an invalid id',
      ['routes', 'add', 'my route', '--preset', 'ollama', '--model', 'm'],
      'cw: a route id is 1 to 64 letters, digits, - or _ (and not auto)',
    ],
    [
      'a URL that is not http',
      ['routes', 'add', 'box', '--base-url', 'ftp://box/v1', '--model', 'm'],
      'cw: --base-url: must be a valid url (http or https); found a string',
    ],
    [
      'a URL with user info',
      ['routes', 'add', 'box', '--base-url', 'http://me:sk-test-0000@box/v1', '--model', 'm'],
      'cw: --base-url: must not carry user info (name:secret@); put the key in the environment variable the route names; found a string',
    ],
    [
      'an unknown preset',
      ['routes', 'add', 'box', '--preset', 'ollamma', '--model', 'm'],
      'cw: --preset takes one of: ollama, llama-cpp, vllm, lm-studio',
    ],
    [
      'no endpoint',
      ['routes', 'add', 'box', '--model', 'm'],
      'cw: give the endpoint with --base-url <url>, or a --preset',
    ],
    [
      'no model',
      ['routes', 'add', 'box', '--preset', 'vllm'],
      'cw: give the model the server serves with --model <model>',
    ],
    [
      'a key variable that is not a name',
      ['routes', 'add', 'box', '--preset', 'vllm', '--model', 'm', '--key-env', 'sk-test-0000'],
      'cw: --key-env: must be an environment variable name; found a string',
    ],
    [
      'a dialect no plugin speaks',
      ['routes', 'add', 'box', '--preset', 'vllm', '--model', 'm', '--dialect', 'chat-completion'],
      'cw: --dialect takes a dialect a loaded plugin speaks: chat-completions, anthropic-messages, openai-responses, gemini-generate-content, ollama-chat',
    ],
    [
      'a route id a plugin registered',
      ['routes', 'add', 'deepseek', '--preset', 'vllm', '--model', 'm'],
      'cw: route deepseek is registered by a plugin (cw routes lists it); choose another id',
    ],
    [
      'an id already in config.json, without --force',
      ['routes', 'add', 'mine', '--preset', 'vllm', '--model', 'other'],
      'cw: route mine is already in config.json; pass --force to replace it, or choose another id',
    ],
  ];

  for (const [what, argv, line] of refusals) {
    it(`refuses ${what}: one line, exit 2, config.json untouched`, async () => {
      const env = await fresh();
      const seeded = await runCwChild(['routes', 'add', 'mine', '--preset', 'ollama', '--model', 'm'], env);
      expect(seeded.code, seeded.stderr).toBe(0);
      const before = await configText(env.CW_HOME);
      const run = await runCwChild(argv, env);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`${line}\n`);
      expect(run.stderr).not.toContain('sk-test');
      expect(await configText(env.CW_HOME)).toBe(before);
    });
  }
});

describe('cw config set, one route field at a time', () => {
  it('saves the route as it grows, says what it still needs, and a preview on it is exact once complete', async () => {
    const env = await fresh();
    const steps = [
      ['provider', 'custom', 'dialect, base_url, model'],
      ['dialect', 'chat-completions', 'base_url, model'],
      ['base_url', 'http://127.0.0.1:9/v1', 'model'],
    ] as const;
    for (const [field, value, missing] of steps) {
      const run = await runCwChild(['config', 'set', `routes.box.${field}`, value], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(
        `Set routes.box.${field} in config.json.\nroutes.box is not complete yet: it still needs ${missing}.\n`,
      );
    }
    // Used before it is complete: the route says what it misses, in preview, send and cw routes.
    const early = await preview(env, 'box');
    expect(early.route.unavailable?.detail).toBe(
      'route box in config.json is not complete; it still needs model; set each with cw config set',
    );
    const sent = await runCwChild(['send', '--route', 'box', '--prompt', 'hello'], env);
    expect(sent.code).toBe(1);
    expect(linesOf(sent.stderr)).toEqual([
      'cw: route box in config.json is not complete; it still needs model; set each with cw config set',
    ]);
    const listed = await runCwChild(['routes'], env);
    expect(listed.stderr).toContain(
      'cw: warning: configured route box does not resolve: route box in config.json is not complete; it still needs model',
    );

    const last = await runCwChild(['config', 'set', 'routes.box.model', 'tiny'], env);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toBe('Set routes.box.model in config.json.\n');
    const manifest = await preview(env, 'box');
    expect(manifest.route.exact).toMatchObject({
      route_id: 'box',
      route_defined_by: 'user-config',
      wire_model: 'tiny',
    });
    expect(manifest.body.exact?.body_wire_sha256).toMatch(/^[0-9a-f]{64}$/);
    const selected = await runCwChild(['config', 'set', 'route', 'box'], env);
    expect(selected.code, selected.stderr).toBe(0);
  });

  it('cw routes add --force completes a route that was being written field by field', async () => {
    const env = await fresh();
    expect((await runCwChild(['config', 'set', 'routes.box.provider', 'custom'], env)).code).toBe(0);
    const refused = await runCwChild(['routes', 'add', 'box', '--preset', 'vllm', '--model', 'm'], env);
    expect(refused.code).toBe(2);
    const forced = await runCwChild(['routes', 'add', 'box', '--preset', 'vllm', '--model', 'm', '--force'], env);
    expect(forced.code, forced.stderr).toBe(0);
    expect((await preview(env, 'box')).route.exact).toMatchObject({ route_id: 'box', wire_model: 'm' });
  });

  it('still refuses a field that is wrong as written, and leaves the file as it was', async () => {
    const env = await fresh();
    expect((await runCwChild(['config', 'set', 'routes.box.provider', 'custom'], env)).code).toBe(0);
    const before = await configText(env.CW_HOME);
    const run = await runCwChild(['config', 'set', 'routes.box.base_url', 'ftp://box'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^cw: config\.json:\d+:\d+: routes\.box\.base_url: must be a valid url/);
    expect(await configText(env.CW_HOME)).toBe(before);
  });
});
