// `cw preview-request` has an entry that does not load oclif (cli/src/entry/fast-preview.ts). It must be
// invisible: for every command line and home, stdout, stderr and the exit code are those of the oclif
// command (CW_NO_FAST_PATH=1). Each case runs the built CLI both ways, the oclif-free way with a hook
// that reports any module under @oclif/ it resolves, so the test also knows which way each line went.
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, writeSession } from './support/cw-fixture.js';
import { type CwExit, runCwChild, spawnCw, tempFolders } from './support/spawn-cw.js';

const HOOK = join(REPO_ROOT, 'test', 'fixtures', 'report-oclif-imports.mjs');
const OCLIF_LOADED = 'oclif-loaded: ';
const PLUGIN_FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'plugins');

const folders = tempFolders();
afterAll(folders.cleanup);

interface Setup {
  /** config.json's text, when the home has one. */
  readonly config?: string;
  /** The default session's messages, when the workspace has one. */
  readonly session?: readonly unknown[];
  /** Plugin fixtures linked with `cw plugins link`. */
  readonly links?: readonly string[];
  /** The plugin data folder's package.json text, written as is. */
  readonly dataPackageJson?: string;
  /** A plugin fixture copied into the data folder's node_modules and listed as installed. */
  readonly installed?: string;
}

/** A fresh cw home and plugin data folder set up as `setup` says. */
async function homeWith(setup: Setup): Promise<Record<string, string>> {
  const env = { CW_HOME: await folders.make('cw-fast-home-'), CW_DATA_DIR: await folders.make('cw-fast-data-') };
  if (setup.config !== undefined) await writeFile(join(env.CW_HOME, 'config.json'), setup.config);
  if (setup.session !== undefined) await writeSession(env.CW_HOME, 'default', [...setup.session]);
  for (const fixture of setup.links ?? []) {
    const linked = await runCwChild(['plugins', 'link', join(PLUGIN_FIXTURES, fixture), '--no-install'], env);
    expect(linked.code).toBe(0);
  }
  if (setup.installed !== undefined) {
    const name = `cw-fixture-${setup.installed}`;
    await cp(join(PLUGIN_FIXTURES, setup.installed), join(env.CW_DATA_DIR, 'node_modules', name), { recursive: true });
    const list = {
      name: '@cw/cli',
      private: true,
      oclif: { schema: 1, plugins: [{ name, tag: 'latest', type: 'user' }] },
    };
    await writeFile(join(env.CW_DATA_DIR, 'package.json'), JSON.stringify(list));
  }
  if (setup.dataPackageJson !== undefined) {
    await mkdir(env.CW_DATA_DIR, { recursive: true });
    await writeFile(join(env.CW_DATA_DIR, 'package.json'), setup.dataPackageJson);
  }
  return env;
}

/** Runs cw to the end with `stdin` as its whole input. */
async function run(args: readonly string[], env: Record<string, string>, stdin: string): Promise<CwExit> {
  const cw = spawnCw(args, env);
  cw.child.stdin?.end(stdin);
  return cw.done;
}

/** The same line run the oclif-free way (reporting whether oclif loaded) and the oclif way. */
async function bothWays(
  args: readonly string[],
  env: Record<string, string>,
  stdin = '',
): Promise<{ fast: CwExit; oclif: CwExit; loadedOclif: boolean }> {
  const hooked = await run(args, { ...env, NODE_OPTIONS: `--import=${HOOK}` }, stdin);
  const lines = hooked.stderr.split(/(?<=\n)/);
  const stderr = lines.filter((line) => !line.startsWith(OCLIF_LOADED)).join('');
  const fast = { ...hooked, stderr };
  const oclif = await run(args, { ...env, CW_NO_FAST_PATH: '1' }, stdin);
  return { fast, oclif, loadedOclif: lines.some((line) => line.startsWith(OCLIF_LOADED)) };
}

const HISTORY = [
  { role: 'user', content: 'earlier' },
  { role: 'assistant', content: 'reply to earlier' },
];

/** Lines the oclif-free entry runs: [name, args, setup, stdin]. */
const FAST: readonly [string, readonly string[], Setup, string?][] = [
  ['the JSON manifest', ['preview-request', 'json', '--prompt', 'hi'], {}],
  ['the table', ['preview-request', '--prompt', 'hi'], {}],
  ['--json', ['preview-request', '--json', '--prompt', 'hi'], {}],
  ['manifest after json', ['preview-request', 'json', 'manifest', '--prompt', 'hi'], {}],
  ['the hidden alias dryrun', ['dryrun', 'json', '--prompt', 'hi'], {}],
  ['the hidden alias preview_request', ['preview_request', '--prompt', 'hi'], {}],
  ['--blocking', ['preview-request', 'json', '--blocking', '--prompt', 'hi'], {}],
  ['a built-in route', ['preview-request', 'json', '-r', 'deepseek-anthropic', '--prompt', 'hi'], {}],
  ['--route', ['preview-request', '--route', 'moonshot', '--prompt', 'hi'], {}],
  ['an unknown route', ['preview-request', 'json', '-r', 'no-such-route', '--prompt', 'hi'], {}],
  ['an unknown route, as JSON', ['preview-request', '--json', '-r', 'no-such-route', '--prompt', 'hi'], {}],
  ['a model', ['preview-request', 'json', '-m', 'deepseek-v4-flash', '--prompt', 'hi'], {}],
  ['a route/model', ['preview-request', 'json', '--model', 'moonshot/kimi-k3', '--prompt', 'hi'], {}],
  ['--reasoning high', ['preview-request', 'json', '--reasoning', 'high', '--prompt', 'hi'], {}],
  ['a named session', ['preview-request', 'json', '-s', 'work', '--prompt', 'hi'], {}],
  ['a bad session name', ['preview-request', '--json', '--session', 'no/such', '--prompt', 'hi'], {}],
  ['a new session', ['preview-request', 'json', '-n', '--prompt', 'hi'], { session: HISTORY }],
  ['the last session', ['preview-request', 'json', '-c', '--prompt', 'hi'], { session: HISTORY }],
  ['a session present', ['preview-request', 'json', '--prompt', 'hi'], { session: HISTORY }],
  ['two session choices', ['preview-request', 'json', '-s', 'a', '-n', '--prompt', 'hi'], {}],
  ['the prompt from stdin', ['preview-request', 'json', '--prompt', '-'], {}, 'from stdin\n'],
  ['an empty stdin for --prompt -', ['preview-request', '--prompt', '-'], {}, ''],
  ['no --prompt, stdin empty', ['preview-request', 'json'], {}],
  ['no --prompt, the prompt on stdin', ['preview-request', 'json'], {}, 'piped prompt'],
  ['an empty --prompt', ['preview-request', 'json', '--prompt', ''], {}],
  ['--prompt=', ['preview-request', 'json', '--prompt=hi', 'there'], {}],
  ['--help inside the prompt', ['preview-request', 'json', '--prompt', 'what', 'does', '--help', 'do'], {}],
  ['a route flag after the prompt', ['preview-request', 'json', '--prompt', 'hi', '-r', 'zai'], {}],
  ['--reasoning after the prompt, the table', ['preview-request', '--prompt', 'hi', '--reasoning', 'high'], {}],
  ['--json after the prompt', ['preview-request', '--prompt', 'hi', '--json'], {}],
  ['a fenced prompt', ['preview-request', 'json', '--', '--prompt', '--help', '-h'], {}],
  [
    'a config with an error',
    ['preview-request', 'json', '--prompt', 'hi'],
    { config: '{\n  "route": "deepseek"\n  "model": "x"\n}\n' },
  ],
  ['a config value refused', ['preview-request', '--json', '--prompt', 'hi'], { config: '{ "reasoning": "extreme" }' }],
  ['a config route', ['preview-request', 'json', '--prompt', 'hi'], { config: '{ "route": "zai" }' }],
  [
    'linked third-party plugins',
    ['preview-request', 'json', '--prompt', 'hi'],
    { config: '{ "route": "fixture-route" }', links: ['good-esm', 'throws'] },
  ],
  ['a linked plugin, the table', ['preview-request', '--prompt', 'hi'], { links: ['good-esm'] }],
  [
    'an installed third-party plugin',
    ['preview-request', 'json', '--prompt', 'hi'],
    { config: '{ "route": "fixture-route" }', installed: 'good-esm' },
  ],
  ['an empty data folder list', ['preview-request', 'json', '--prompt', 'hi'], { dataPackageJson: '{}' }],
];

/** Lines only oclif can answer exactly, so the oclif-free entry must leave them to it. */
const OCLIF: readonly [string, readonly string[], Setup][] = [
  ['--help', ['preview-request', '--help'], {}],
  ['--help before --prompt', ['preview-request', 'json', '--help', '--prompt', 'hi'], {}],
  ['-h', ['preview-request', '-h', '--prompt', 'hi'], {}],
  ['diff', ['preview-request', 'diff', 'a.json', 'b.json'], {}],
  ['base-prompt', ['preview-request', 'base-prompt'], {}],
  ['an unknown flag', ['preview-request', '--jsn', '--prompt', 'hi'], {}],
  ['an unknown word', ['preview-request', 'hello', 'world'], {}],
  ['--flag=value', ['preview-request', '--route=zai', '--prompt', 'hi'], {}],
  ['an attached short value', ['preview-request', '-rzai', '--prompt', 'hi'], {}],
  ['a repeated flag', ['preview-request', '--json', '--json', '--prompt', 'hi'], {}],
  ['a reasoning level that does not exist', ['preview-request', '--reasoning', 'extreme', '--prompt', 'hi'], {}],
  ['a flag with no value', ['preview-request', 'json', '-r', '--prompt', 'hi'], {}],
  ['a value that starts with -', ['preview-request', 'json', '-m', '-x', '--prompt', 'hi'], {}],
  ['a stray --', ['preview-request', '--', 'json', '--prompt', 'hi'], {}],
  [
    'a data folder list that is not an object',
    ['preview-request', 'json', '--prompt', 'hi'],
    { dataPackageJson: '[1]' },
  ],
  [
    'a linked plugin whose folder is gone',
    ['preview-request', 'json', '--prompt', 'hi'],
    {
      dataPackageJson: JSON.stringify({
        oclif: { plugins: [{ name: 'cw-gone', type: 'link', root: join(REPO_ROOT, 'test', 'fixtures', 'no-such') }] },
      }),
    },
  ],
];

describe('cw preview-request without oclif', () => {
  it.each(FAST)('prints what the oclif command prints: %s', async (_name, args, setup, stdin) => {
    const env = await homeWith(setup);
    const { fast, oclif, loadedOclif } = await bothWays(args, env, stdin);
    expect(fast).toEqual(oclif);
    expect(loadedOclif).toBe(false);
  });

  it.each(OCLIF)('leaves the line to oclif: %s', async (_name, args, setup) => {
    const env = await homeWith(setup);
    const { fast, oclif, loadedOclif } = await bothWays(args, env);
    expect(loadedOclif).toBe(true);
    // The "gone" plugin's warning names the process id, which differs from run to run.
    if (setup.dataPackageJson?.includes('cw-gone') !== true) expect(fast).toEqual(oclif);
    else expect(fast.code).toBe(oclif.code);
  });

  it('the matrix covers what it means to: JSON, the table, failures as JSON, plugin warnings', async () => {
    const env = await homeWith({ config: '{ "route": "fixture-route" }', links: ['good-esm', 'throws'] });
    const linked = await bothWays(['preview-request', 'json', '--prompt', 'hi'], env);
    expect(linked.fast.code).toBe(0);
    expect(JSON.parse(linked.fast.stdout)).toMatchObject({ route: { exact: { route_id: 'fixture-route' } } });
    expect(linked.fast.stderr).toContain('cw-fixture-throws did not load (register-threw)');
    const plain = await homeWith({});
    const refused = await bothWays(
      ['preview-request', '--json', '--prompt', 'hi'],
      await homeWith({ config: '{ "reasoning": "extreme" }' }),
    );
    expect(refused.fast.code).toBe(1);
    expect(JSON.parse(refused.fast.stdout)).toHaveProperty('error');
    expect(refused.fast.stderr).toMatch(/^cw: config\.json/);
    const late = await bothWays(['preview-request', 'json', '--prompt', 'hi', '-r', 'zai'], plain);
    expect(late.fast.stderr).toBe(
      'cw: warning: -r at the end of the prompt was read as prompt text, not as a flag; flags go before --prompt\n',
    );
    expect(JSON.parse(late.fast.stdout)).toMatchObject({ session: { requested_route: 'deepseek' } });
    const help = await bothWays(['preview-request', 'json', '--prompt', 'what', 'does', '--help', 'do'], plain);
    expect(help.fast.code).toBe(0);
    expect(help.fast.stdout).toContain('"schema_version"');
  });
});
