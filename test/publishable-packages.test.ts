// The packages cw publishes (the core, the plugin helpers, every built-in plugin and the CLI) are
// publishable as they stand: what `npm pack` would put in each tarball, the fields a registry and a
// consumer read, and versions that agree with each other. The plugin template is checked as the
// stand-alone package an author copies, and the CLI ships a copy of it for `cw plugins new`. Needs
// `npm run build` first (the tarballs list built files). `npm publish --dry-run` runs against a closed
// loopback port: it reads each tarball's manifest as a registry would, and nothing leaves the machine.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PLUGIN_API_VERSION } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cw-fixture.js';
import { childEnv, closedPort, runProcess } from './support/local-registry.js';

interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly main?: string;
  readonly types?: string;
  readonly exports?: Record<string, unknown>;
  readonly bin?: Record<string, string>;
  readonly files?: string[];
  readonly engines?: { readonly node?: string };
  readonly publishConfig?: { readonly access?: string };
  readonly scripts?: Record<string, string>;
  readonly cw?: { readonly apiVersion?: unknown; readonly register?: string };
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

const readJson = async <T>(path: string): Promise<T> => JSON.parse(await readFile(path, 'utf8')) as T;

/** Every workspace that is published: all but the template, which an author copies and renames. */
async function publishedFolders(): Promise<string[]> {
  const plugins = (await readdir(join(REPO_ROOT, 'plugins'))).sort().map((name) => `plugins/${name}`);
  return ['core', ...plugins, 'cli'];
}

const EXACT_VERSION = /^\d+\.\d+\.\d+$/;

describe('the published packages', () => {
  it('declare what a registry and a consumer read, and depend on each other at their own versions', async () => {
    const folders = await publishedFolders();
    const packages = await Promise.all(
      folders.map((folder) => readJson<PackageJson>(join(REPO_ROOT, folder, 'package.json'))),
    );
    const versions = new Map(packages.map((pjson) => [pjson.name, pjson.version]));
    for (const pjson of packages) {
      const where = pjson.name;
      expect(pjson.name, where).toMatch(/^@cw\/[a-z0-9-]+$/);
      expect(pjson.version, where).toMatch(EXACT_VERSION);
      expect(pjson.private, where).toBeUndefined();
      expect(pjson.files, where).toContain('dist');
      expect(pjson.engines?.node, where).toBe('>=20.19.0');
      // Scoped packages are private on the public registry unless they say otherwise.
      expect(pjson.publishConfig?.access, where).toBe('public');
      for (const [dependency, range] of Object.entries({ ...pjson.dependencies, ...pjson.devDependencies })) {
        if (versions.has(dependency)) expect(range, `${where} -> ${dependency}`).toBe(versions.get(dependency));
      }
      // The CLI has a cw field too (its default route); a plugin is a package whose cw field names a register module.
      if (pjson.cw?.register !== undefined) {
        expect(pjson.cw.apiVersion, where).toBe(PLUGIN_API_VERSION);
        // The core is a peer for types only: a plugin installed into cw's data folder gets none.
        expect(pjson.dependencies?.['@cw/core'], where).toBeUndefined();
      }
    }
    const core = packages.find((pjson) => pjson.name === '@cw/core');
    const kit = packages.find((pjson) => pjson.name === '@cw/plugin-kit');
    // Both load as one bundled file (scripts/bundle-packages.mjs); their types are tsc's.
    for (const library of [core, kit]) {
      expect(library?.exports?.['.'], library?.name).toEqual({
        types: './dist/index.d.ts',
        default: './dist/bundle/index.js',
      });
      expect(library?.main, library?.name).toBe('./dist/bundle/index.js');
      expect(library?.types, library?.name).toBe('./dist/index.d.ts');
    }
    expect(packages.find((pjson) => pjson.name === '@cw/cli')?.bin).toEqual({ cw: './bin/run.js' });
    // One release number for all: the CLI, the core and every plugin move together.
    expect(new Set(packages.map((pjson) => pjson.version))).toEqual(new Set([versions.get('@cw/cli')]));
  });

  it('pass npm publish --dry-run from their tarballs, with no field npm would correct or drop', async () => {
    const folders = await publishedFolders();
    const packs = await mkdtemp(join(tmpdir(), 'cw-publish-dry-run-'));
    try {
      const env = childEnv({
        npm_config_registry: `http://127.0.0.1:${await closedPort()}/`,
        npm_config_fetch_retries: '0',
        npm_config_update_notifier: 'false',
      });
      const packed = await runProcess(
        'npm',
        [
          'pack',
          '--json',
          '--ignore-scripts',
          '--pack-destination',
          packs,
          ...folders.flatMap((folder) => ['-w', folder]),
        ],
        { cwd: REPO_ROOT, env, timeoutMs: 60_000 },
      );
      expect(packed.code, packed.stderr).toBe(0);
      const tarballs = JSON.parse(packed.stdout) as { name: string; version: string; filename: string }[];
      expect(tarballs).toHaveLength(folders.length);
      // A tarball, not a workspace: `npm publish -w cli` from the root resolves the bin against the
      // root and drops it, so a release is published from what `npm pack` made (docs/plugin-authors.md).
      const results: { name: string; code: number | null; stdout: string; stderr: string }[] = [];
      for (let start = 0; start < tarballs.length; start += 6) {
        const batch = tarballs.slice(start, start + 6).map(async (tarball) => ({
          name: tarball.name,
          ...(await runProcess('npm', ['publish', '--dry-run', '--json', join(packs, tarball.filename)], {
            cwd: packs,
            env,
            timeoutMs: 60_000,
          })),
        }));
        results.push(...(await Promise.all(batch)));
      }
      for (const result of results) {
        expect(result.code, `${result.name}: ${result.stderr}`).toBe(0);
        expect(result.stderr, result.name).not.toMatch(/auto-corrected|errors corrected|was invalid/);
        // npm answers with one entry per package it would publish, keyed by name.
        const published = (JSON.parse(result.stdout) as Record<string, { name: string; version: string }>)[result.name];
        expect(published?.name).toBe(result.name);
        expect(published?.version).toBe(tarballs.find((tarball) => tarball.name === result.name)?.version);
      }
    } finally {
      await rm(packs, { recursive: true, force: true });
    }
  }, 240_000);

  it('pack the built entry points and their types, and nothing from src or the tests', async () => {
    const folders = await publishedFolders();
    const packed = await runProcess(
      'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts', ...folders.flatMap((folder) => ['-w', folder])],
      { cwd: REPO_ROOT, env: childEnv({}), timeoutMs: 60_000 },
    );
    expect(packed.code, packed.stderr).toBe(0);
    const tarballs = JSON.parse(packed.stdout) as { name: string; files: { path: string }[] }[];
    expect(tarballs).toHaveLength(folders.length);
    for (const [index, tarball] of tarballs.entries()) {
      const pjson = await readJson<PackageJson>(join(REPO_ROOT, folders[index] as string, 'package.json'));
      expect(tarball.name).toBe(pjson.name);
      const paths = new Set(tarball.files.map((file) => file.path));
      const wanted = ['package.json', pjson.types, pjson.main, pjson.cw?.register, ...Object.values(pjson.bin ?? {})]
        .filter((path): path is string => path !== undefined)
        .map((path) => path.replace(/^\.\//, ''));
      for (const path of wanted) expect(paths, `${pjson.name} packs ${path}`).toContain(path);
      for (const path of paths) {
        // The plugin template the CLI ships for `cw plugins new` is sources and tests by design.
        if (path.startsWith('dist/plugin-scaffold/template/')) continue;
        expect(path, pjson.name).not.toMatch(/(^|\/)src\/|\.test\.|\.tsbuildinfo$/);
      }
    }
    const cli = tarballs.find((tarball) => tarball.name === '@cw/cli');
    expect(cli?.files.map((file) => file.path)).toContain('oclif.manifest.json');
    // What `cw plugins new` writes from ships in the CLI's tarball.
    const scaffold = await readJson<{ packages: { file: string }[] }>(
      join(REPO_ROOT, 'cli', 'dist', 'plugin-scaffold', 'scaffold.json'),
    );
    for (const path of [
      'dist/plugin-scaffold/scaffold.json',
      'dist/plugin-scaffold/template/package.json',
      'dist/plugin-scaffold/template/gitignore',
      'dist/plugin-scaffold/template/src/example-capability-rows.ts',
      ...scaffold.packages.map((entry) => `dist/plugin-scaffold/cw-packages/${entry.file}`),
    ])
      expect(cli?.files.map((file) => file.path)).toContain(path);
  }, 90_000);
});

/** Every file under `folder`, relative to it, leaving out what an install or a build makes. */
async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)))
    .filter((path) => !/(^|\/)(node_modules|dist)\/|\.tsbuildinfo$|\.tgz$/.test(path))
    .sort();
}

describe('the plugin scaffold the CLI ships', () => {
  it('is plugin-template as it stands (built from it, not kept by hand) and the packed @cw packages it names', async () => {
    const scaffold = join(REPO_ROOT, 'cli', 'dist', 'plugin-scaffold');
    const template = join(REPO_ROOT, 'plugin-template');
    const own = await sourceFiles(template);
    const shipped = await sourceFiles(join(scaffold, 'template'));
    // npm leaves .gitignore out of a tarball, so it ships as gitignore.
    expect(shipped).toEqual(own.map((path) => (path === '.gitignore' ? 'gitignore' : path)).sort());
    for (const path of own) {
      const copy = join(scaffold, 'template', path === '.gitignore' ? 'gitignore' : path);
      expect((await readFile(copy)).equals(await readFile(join(template, path))), path).toBe(true);
    }
    const templateJson = await readJson<PackageJson>(join(template, 'package.json'));
    const wanted = Object.entries(templateJson.devDependencies ?? {}).filter(([name]) => name.startsWith('@cw/'));
    const listed = await readJson<{ packages: { name: string; version: string; file: string }[] }>(
      join(scaffold, 'scaffold.json'),
    );
    expect(listed.packages.map((entry) => [entry.name, entry.version]).sort()).toEqual(wanted.sort());
    expect((await readdir(join(scaffold, 'cw-packages'))).sort()).toEqual(
      listed.packages.map((entry) => entry.file).sort(),
    );
  });
});

describe('the plugin template', () => {
  it('stands alone: its own scripts, compiler settings and pinned tools, and cw packages at their published versions', async () => {
    const folder = join(REPO_ROOT, 'plugin-template');
    const pjson = await readJson<PackageJson>(join(folder, 'package.json'));
    expect(pjson.scripts?.['build']).toBe('tsc -p tsconfig.json && npm run bundle');
    expect(pjson.scripts?.['bundle']).toMatch(/^esbuild dist\/index\.js --bundle .*--outfile=dist\/plugin\.js$/);
    expect(pjson.scripts?.['test']).toBe('vitest run');
    expect(pjson.cw).toEqual({ apiVersion: PLUGIN_API_VERSION, register: './dist/plugin.js' });
    // The kit is bundled into dist/plugin.js: a tarball of the plugin needs nothing from a registry.
    expect(pjson.dependencies ?? {}).toEqual({});
    expect(pjson.files).toEqual(['dist/plugin.js']);
    // Private in the repository, so publishing the workspaces never publishes the placeholder name.
    expect(pjson.private).toBe(true);
    for (const tool of ['typescript', 'vitest', '@types/node', 'esbuild']) {
      expect(pjson.devDependencies?.[tool], tool).toMatch(EXACT_VERSION);
    }
    const rootDev = (await readJson<PackageJson>(join(REPO_ROOT, 'package.json'))).devDependencies ?? {};
    for (const [tool, version] of Object.entries(pjson.devDependencies ?? {})) {
      if (!tool.startsWith('@cw/') && rootDev[tool] !== undefined) expect(version, tool).toBe(rootDev[tool]);
    }
    for (const [name, range] of Object.entries({ ...pjson.dependencies, ...pjson.devDependencies })) {
      if (!name.startsWith('@cw/')) continue;
      const folderOf: Record<string, string> = { '@cw/core': 'core' };
      const source = folderOf[name] ?? `plugins/${name.slice('@cw/'.length)}`;
      expect(range, name).toBe((await readJson<PackageJson>(join(REPO_ROOT, source, 'package.json'))).version);
    }
    // Nothing in its build settings reaches outside its folder.
    const tsconfig = await readFile(join(folder, 'tsconfig.json'), 'utf8');
    expect(tsconfig).not.toMatch(/"extends"|"references"|\.\.\//);
  });

  it('carries the same Chat Completions request schema as the repository’s tests', async () => {
    const own = await readFile(
      join(REPO_ROOT, 'plugin-template', 'fixtures', 'openai-chat-completions-request.schema.json'),
    );
    const tests = await readFile(
      join(REPO_ROOT, 'test', 'fixtures', 'specs', 'openai-chat-completions-request.schema.json'),
    );
    expect(own.equals(tests)).toBe(true);
  });
});
