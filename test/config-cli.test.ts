import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY, useCwHomes } from './support/cw-fixture.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { runCw } from './support/run-cw.js';

const home = useCwHomes();

/** A fresh home whose config.json holds exactly `text`. */
async function homeWithText(text: string): Promise<string> {
  const folder = await home();
  await writeFile(join(folder, 'config.json'), text);
  return folder;
}

const configText = (folder: string): Promise<string> => readFile(join(folder, 'config.json'), 'utf8');

const COMMENTED = `{
  // my everyday route
  "route": "deepseek",
  /* tools I never want */
  "tools": { "deny": ["shell"], },
}
`;

const localRoute = (model: string, extra: Record<string, unknown> = {}) => ({
  provider: 'custom',
  dialect: 'chat-completions',
  base_url: 'http://gpu-box.lan:8080/v1',
  model,
  ...extra,
});

describe('config.json is JSONC', () => {
  it('comments and trailing commas are accepted, and preview still writes nothing', async () => {
    const folder = await homeWithText(COMMENTED);
    const result = await runCw(['preview-request', 'json', '--prompt', 'hi']);
    expect(result.exitCode).toBe(0);
    expectValidManifest(result.stdout);
    expect(await readdir(folder)).toEqual(['config.json']);
    expect(await configText(folder)).toBe(COMMENTED);
  });

  it('every problem is listed on its own line with line:column, field, what was found and what is accepted', async () => {
    await homeWithText(
      [
        '{',
        '  // a local box',
        '  "reasoning": "extreme",',
        '  "routes": {',
        '    "local": { "provider": "custom", "dialect": "chat_completions",',
        '               "base_url": "http://127.0.0.1:8080/v1", "model": "m" },',
        '  },',
        '  "max_steps": 0,',
        '}',
      ].join('\n'),
    );
    const result = await runCw(['preview-request', '--prompt', 'hi']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      'cw: config.json:3:16: reasoning: not an accepted value; found "extreme"; accepted: off, minimal, low, medium, high, xhigh, max, auto',
    );
    expect(lines[1]).toMatch(
      /^cw: config\.json:5:49: routes\.local\.dialect: must be a kebab-case label; found "chat_completions"; accepted: .*\bchat-completions\b/,
    );
    for (const dialect of ['anthropic-messages', 'openai-responses', 'gemini-generate-content', 'ollama-chat'])
      expect(lines[1]).toContain(dialect);
    expect(lines[2]).toBe('cw: config.json:8:16: max_steps: too small; found 0; accepted: at least 1');
  });

  it('a syntax error names the line and column', async () => {
    await homeWithText('{\n  "route": "deepseek"\n  "model": "x"\n}\n');
    const result = await runCw(['preview-request', '--prompt', 'hi']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('cw: config.json:3:3: not valid JSON: a comma is expected\n');
  });
});

describe('a field written twice', () => {
  it('counts once, the last time, for commands that read; cw config validate reports it', async () => {
    await homeWithText('{\n  "route": "moonshot",\n  "route": "deepseek"\n}\n');
    expect(await runCw(['config', 'get', 'route'])).toMatchObject({ exitCode: 0, stdout: 'deepseek\n' });
    const result = await runCw(['config', 'validate']);
    expect(result).toMatchObject({
      exitCode: 1,
      stderr: 'cw: config.json:3:3: route: written twice in one object; remove one (only the last would count)\n',
    });
  });
});

describe('cw config path', () => {
  it('prints where config.json is, and with --json every folder and why', async () => {
    const folder = await home();
    const plain = await runCw(['config', 'path']);
    expect(plain).toMatchObject({ exitCode: 0, stdout: `${join(folder, 'config.json')}\n`, stderr: '' });
    const json = JSON.parse((await runCw(['config', 'path', '--json'])).stdout) as Record<string, string>;
    expect(json).toMatchObject({
      home: folder,
      home_source: 'CW_HOME',
      config_file: join(folder, 'config.json'),
      sessions: join(folder, 'sessions'),
    });
  });
});

describe('cw config get', () => {
  it('prints a value as cw reads it, defaults filled in; a string plainly, anything else as JSON', async () => {
    await homeWithText(COMMENTED);
    expect(await runCw(['config', 'get', 'route'])).toMatchObject({ exitCode: 0, stdout: 'deepseek\n' });
    expect(await runCw(['config', 'get', 'approval'])).toMatchObject({ exitCode: 0, stdout: 'ask\n' });
    expect(JSON.parse((await runCw(['config', 'get', 'tools'])).stdout)).toEqual({
      deny: ['shell'],
      surface: 'standard',
    });
    expect((await runCw(['config', 'get', 'tools.deny[0]', '--json'])).stdout).toBe('"shell"\n');
  });

  it('a key that is not set exits 1; a field that does not exist or a malformed key exits 2', async () => {
    await homeWithText(COMMENTED);
    const unset = await runCw(['config', 'get', 'model']);
    expect(unset).toMatchObject({ exitCode: 1, stdout: '', stderr: 'cw: config.json: model: not set\n' });
    const unknown = await runCw(['config', 'get', 'modle']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^cw: modle is not a config field; accepted: route, model, /);
    expect((await runCw(['config', 'get', 'routes..x'])).exitCode).toBe(2);
    // oclif's own parse errors are usage errors too.
    expect((await runCw(['config', 'get'])).exitCode).toBe(2);
    expect((await runCw(['config', 'set', 'route'])).exitCode).toBe(2);
    expect((await runCw(['config', 'validate', '--bogus'])).exitCode).toBe(2);
  });

  it('a secret-shaped string is withheld; a key variable name is shown', async () => {
    await home({ routes: { local: localRoute(FAKE_KEY, { api_key_env: 'LOCAL_API_KEY' }) } });
    const model = await runCw(['config', 'get', 'routes.local.model']);
    expect(model).toMatchObject({ exitCode: 0, stdout: '<redacted>\n' });
    const whole = await runCw(['config', 'get', 'routes']);
    expect(whole.stdout).not.toContain(FAKE_KEY);
    expect(whole.stdout).toContain('"LOCAL_API_KEY"');
    expect((await runCw(['config', 'get', 'routes.local.api_key_env'])).stdout).toBe('LOCAL_API_KEY\n');
  });
});

describe('cw config set and unset', () => {
  it('set keeps comments and layout, and changes only what it sets', async () => {
    const folder = await homeWithText(COMMENTED);
    expect(await runCw(['config', 'set', 'route', 'moonshot'])).toMatchObject({
      exitCode: 0,
      stdout: 'Set route in config.json.\n',
    });
    expect(await configText(folder)).toBe(COMMENTED.replace('"deepseek"', '"moonshot"'));
    expect((await runCw(['config', 'set', 'max_steps', '40'])).exitCode).toBe(0);
    expect((await runCw(['config', 'set', 'tools.allow', '["read_file"]'])).exitCode).toBe(0);
    expect(await configText(folder)).toBe(`{
  // my everyday route
  "route": "moonshot",
  /* tools I never want */
  "tools": { "deny": ["shell"], "allow": ["read_file"], },
  "max_steps": 40,
}
`);
    expect((await runCw(['config', 'unset', 'max_steps'])).stdout).toBe('Removed max_steps from config.json.\n');
    expect(await configText(folder)).not.toContain('max_steps');
    expect(await configText(folder)).toContain('// my everyday route');
  });

  it('set creates config.json and the objects a nested key needs', async () => {
    const folder = await home();
    const result = await runCw(['config', 'set', 'routes.local', JSON.stringify(localRoute('qwen3-coder'))]);
    expect(result.exitCode).toBe(0);
    expect((await runCw(['config', 'set', 'route', 'local'])).exitCode).toBe(0);
    expect(JSON.parse(await configText(folder))).toEqual({
      routes: { local: localRoute('qwen3-coder') },
      route: 'local',
    });
  });

  it('an invalid result is refused with every problem listed, and the file is left byte for byte', async () => {
    const folder = await homeWithText(COMMENTED);
    for (const argv of [
      ['config', 'set', 'max_steps', '0'],
      ['config', 'set', 'reasoning', 'extreme'],
      ['config', 'set', 'modle', 'x'],
      ['config', 'set', 'route', 'no-such-route'],
      ['config', 'set', 'routes.local', '{"provider": "custom", "model": 5}'],
    ]) {
      const result = await runCw(argv);
      expect(result.exitCode, argv.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^cw: config\.json:\d+:\d+: /);
      expect(result.stderr.endsWith('cw: config.json: nothing was changed\n')).toBe(true);
      expect(await configText(folder)).toBe(COMMENTED);
    }
    // A route missing fields is saved and says what it misses when used (test/first-run.test.ts);
    // a field that is wrong as written is still refused.
    const wrong = await runCw(['config', 'set', 'routes.local', '{"provider": "custom", "model": 5}']);
    expect(wrong.stderr).toContain('routes.local.model: wrong type; found 5; accepted: a string');
    const unknownRoute = await runCw(['config', 'set', 'route', 'no-such-route']);
    expect(unknownRoute.stderr).toMatch(/route: no such route; found "no-such-route"; accepted: deepseek, /);
    expect((await runCw(['config', 'set', 'modle', 'x'])).stderr).toContain(
      'modle: unknown field; did you mean model?',
    );
  });

  it('a malformed key is a usage error (exit 2) and changes nothing', async () => {
    const folder = await homeWithText(COMMENTED);
    const result = await runCw(['config', 'set', 'tools..allow', 'x']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^cw: a config key is a dotted path/);
    expect(await configText(folder)).toBe(COMMENTED);
  });

  it('a file that does not parse is never edited', async () => {
    const broken = '{ "route": "deepseek" "model": "x" }';
    const folder = await homeWithText(broken);
    const result = await runCw(['config', 'set', 'model', 'y']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('cw: config.json:1:23: not valid JSON: a comma is expected');
    expect(await configText(folder)).toBe(broken);
  });
});

describe('cw config validate', () => {
  it('exits 0 for a valid config, and for none', async () => {
    await homeWithText(COMMENTED);
    expect(await runCw(['config', 'validate'])).toMatchObject({ exitCode: 0, stdout: 'config.json is valid.\n' });
    await home();
    expect(await runCw(['config', 'validate'])).toMatchObject({
      exitCode: 0,
      stdout: 'No config.json in the cw home: the built-in defaults apply.\n',
    });
  });

  it('exits 1 listing every problem, the schema and the loaded plugins both checked', async () => {
    await home({
      route: 'nowhere',
      routes: { local: localRoute('m', { dialect: 'no-such-dialect' }) },
    });
    const result = await runCw(['config', 'validate']);
    expect(result.exitCode).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines, result.stderr).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^cw: config\.json:1:\d+: route: no such route; found "nowhere"; accepted: deepseek, .*\blocal\b/,
    );
    expect(lines[1]).toMatch(
      /^cw: config\.json:1:\d+: routes\.local\.dialect: not a dialect any loaded plugin speaks; found "no-such-dialect"; accepted: .*chat-completions/,
    );
    const json = await runCw(['config', 'validate', '--json']);
    expect(json.exitCode).toBe(1);
    const document = JSON.parse(json.stdout) as { valid: boolean; problems: { line: number; field: string }[] };
    expect(document.valid).toBe(false);
    expect(document.problems.map((problem) => problem.field)).toEqual(['route', 'routes.local.dialect']);
  });
});

describe("the user's own facts in human output", () => {
  const MODEL = 'meta-llama/Llama-3.3-70B-Instruct';

  it('the preview table shows the configured model, route and host as written; the JSON manifest does not', async () => {
    await home({ route: 'local', routes: { local: localRoute(MODEL) } });
    const table = await runCw(['preview-request', '--prompt', 'hi']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/wire model +meta-llama\/Llama-3\.3-70B-Instruct\n/);
    expect(table.stdout).toMatch(/endpoint +http remote gpu-box\.lan:8080\n/);
    expect(table.stdout).toMatch(/requested route +local\n/);
    const json = await runCw(['preview-request', 'json', '--prompt', 'hi']);
    expect(json.stdout).not.toContain(MODEL);
    expect(json.stdout).not.toContain('gpu-box');
    expect(json.stdout).toMatch(/"wire_model": "sha256:[0-9a-f]{12}"/);
  });

  it('a secret-shaped model id is never shown, in the table or in cw routes', async () => {
    await home({ route: 'local', routes: { local: localRoute(FAKE_KEY), mine: localRoute(MODEL) } });
    const table = await runCw(['preview-request', '--prompt', 'hi']);
    expect(table.stdout).not.toContain(FAKE_KEY);
    expect(table.stdout).toMatch(/wire model +sha256:[0-9a-f]{12}\n/);
    const routes = await runCw(['routes']);
    expect(routes.exitCode).toBe(0);
    expect(routes.stdout).not.toContain(FAKE_KEY);
    expect(routes.stdout).toMatch(/^local +custom +chat-completions +custom-compatible +sha256:[0-9a-f]{12} /m);
    expect(routes.stdout).toMatch(
      /^mine +custom +chat-completions +custom-compatible +meta-llama\/Llama-3\.3-70B-Instruct /m,
    );
  });

  it('cw routes --json lists a configured route that does not resolve, with its problem', async () => {
    await home({ routes: { local: localRoute(MODEL), broken: localRoute('m', { dialect: 'no-such-dialect' }) } });
    const result = await runCw(['routes', '--json']);
    expect(result.exitCode).toBe(0);
    const document = JSON.parse(result.stdout) as {
      routes: { route_id: string }[];
      unresolved_routes: { route_id: string; defined_by: string; problem: string }[];
    };
    expect(document.routes.map((route) => route.route_id)).toContain('local');
    expect(document.unresolved_routes).toEqual([
      { route_id: 'broken', defined_by: 'user-config', problem: expect.stringContaining('could not be resolved') },
    ]);
    const human = await runCw(['routes']);
    expect(human.stderr).toContain('configured route broken does not resolve');
    expect(human.stdout).toContain('1 configured route(s) do not resolve');
  });
});

describe('kept permissions', () => {
  it('cw config get permissions shows the rules kept for the current workspace after config.json own', async () => {
    const { mkdtemp, realpath } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { keepProjectPermission } = await import('../core/src/agent/project-permissions.js');
    const workspace = await realpath(await mkdtemp(join(tmpdir(), 'cw-kept-')));
    const folder = await home({ workspace, permissions: { allow: ['read_file'], deny: ['shell(rm:*)'] } });
    await keepProjectPermission(folder, workspace, 'shell(npm test)');
    const result = await runCw(['config', 'get', 'permissions', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ allow: ['read_file', 'shell(npm test)'], deny: ['shell(rm:*)'] });
    // The file config.json is left alone: kept rules live apart from it.
    expect(JSON.parse(await configText(folder))).toMatchObject({ permissions: { allow: ['read_file'] } });
  });
});
