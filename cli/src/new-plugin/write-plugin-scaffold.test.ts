import { cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scaffoldOptions } from './scaffold-options.js';
import { PACKAGES_FOLDER, type ScaffoldSource, writePluginScaffold } from './write-plugin-scaffold.js';

// The repository's own template is the source: the placeholders filled in are the ones it has.
const TEMPLATE = fileURLToPath(new URL('../../../plugin-template', import.meta.url));

let work: string;
let source: ScaffoldSource;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'cw-new-plugin-'));
  const packagesDir = join(work, 'packs');
  await mkdir(packagesDir);
  const packages = ['core', 'plugin-kit', 'dialect-chat-completions'].map((name) => ({
    name: `@cw/${name}`,
    version: '0.1.0',
    file: `cw-${name}-0.1.0.tgz`,
  }));
  for (const entry of packages) await writeFile(join(packagesDir, entry.file), `tarball of ${entry.name}`);
  source = { templateDir: TEMPLATE, packagesDir, packages };
});

afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Everything in `folder`, so a test can see that nothing was written, not even a temp folder. */
const entries = (folder: string): Promise<string[]> => readdir(folder).then((names) => names.sort());

describe('writePluginScaffold', () => {
  it('writes the template with the names filled in and the @cw packages from tarballs inside the project', async () => {
    const target = join(work, 'cw-provider-acme');
    await writePluginScaffold(source, scaffoldOptions('cw-provider-acme', { routeId: 'acme-chat' }), target);

    const pjson = JSON.parse(await readFile(join(target, 'package.json'), 'utf8')) as Record<string, unknown> & {
      devDependencies: Record<string, string>;
    };
    expect(pjson['name']).toBe('cw-provider-acme');
    expect(pjson['private']).toBeUndefined();
    expect(pjson.devDependencies['@cw/core']).toBe(`file:${PACKAGES_FOLDER}/cw-core-0.1.0.tgz`);
    expect(pjson.devDependencies['@cw/plugin-kit']).toBe(`file:${PACKAGES_FOLDER}/cw-plugin-kit-0.1.0.tgz`);
    expect(pjson.devDependencies['typescript']).toMatch(/^\d+\.\d+\.\d+$/);
    // The dialect depends on the kit by version: the override makes that the same tarball.
    expect(pjson['overrides']).toEqual({
      '@cw/core': '$@cw/core',
      '@cw/dialect-chat-completions': '$@cw/dialect-chat-completions',
      '@cw/plugin-kit': '$@cw/plugin-kit',
    });
    expect(await readFile(join(target, PACKAGES_FOLDER, 'cw-core-0.1.0.tgz'), 'utf8')).toBe('tarball of @cw/core');

    const row = await readFile(join(target, 'src', 'example-capability-rows.ts'), 'utf8');
    expect(row).toContain("provider_id: 'acme',");
    expect(row).toContain("provider_display: 'Acme',");
    expect(row).toContain("route_id: 'acme-chat',");
    expect(row).toContain("base_url: 'https://api.acme.example/v1'");
    expect(row).toContain("api_key_env: 'ACME_API_KEY'");
    expect(row).not.toMatch(/example\.com|EXAMPLE_API_KEY|example-chat/);
    expect(await readFile(join(target, 'src', 'index.test.ts'), 'utf8')).not.toContain('cw-provider-example');
    // What the author's own build and install make is never copied from the template folder.
    expect(await entries(target)).not.toContain('node_modules');
    expect(await entries(target)).not.toContain('dist');
    expect(await entries(work)).toEqual(['cw-provider-acme', 'packs']);
  });

  it('escapes a display name for the source file it is written into', async () => {
    const target = join(work, 'p');
    await writePluginScaffold(source, scaffoldOptions('cw-provider-acme', { providerDisplay: "O'Neil \\ Co" }), target);
    const row = await readFile(join(target, 'src', 'example-capability-rows.ts'), 'utf8');
    expect(row).toContain("provider_display: 'O\\'Neil \\\\ Co',");
  });

  it('writes into an empty folder', async () => {
    const target = join(work, 'empty');
    await mkdir(target);
    await writePluginScaffold(source, scaffoldOptions('cw-provider-acme', {}), target);
    expect(await entries(target)).toContain('package.json');
  });

  it.each([
    [
      'a folder with a file in it',
      async (target: string) => {
        await mkdir(target);
        await writeFile(join(target, 'notes.txt'), 'mine');
      },
    ],
    ['a file', (target: string) => writeFile(target, 'mine')],
    [
      'a link to an empty folder',
      async (target: string) => {
        await mkdir(join(work, 'elsewhere'));
        await symlink(join(work, 'elsewhere'), target);
      },
    ],
  ])('refuses %s with exit 2 and writes nothing', async (_what, prepare) => {
    const target = join(work, 'target');
    await prepare(target);
    const before = await entries(work);
    await expect(writePluginScaffold(source, scaffoldOptions('cw-provider-acme', {}), target)).rejects.toMatchObject({
      name: 'ScaffoldUsageError',
      exitCode: 2,
    });
    expect(await entries(work)).toEqual(before);
    if ((await entries(work)).includes('elsewhere')) expect(await entries(join(work, 'elsewhere'))).toEqual([]);
  });

  it('fails closed, leaving nothing behind, when the template lacks a placeholder it fills', async () => {
    const drifted = join(work, 'drifted');
    await cp(TEMPLATE, drifted, { recursive: true, filter: (path) => !/node_modules|[\\/]dist$/.test(path) });
    const rowFile = join(drifted, 'src', 'example-capability-rows.ts');
    await writeFile(rowFile, (await readFile(rowFile, 'utf8')).replace("route_id: 'example-chat'", "route_id: 'x'"));
    const before = await entries(work);
    await expect(
      writePluginScaffold(
        { ...source, templateDir: drifted },
        scaffoldOptions('cw-provider-acme', {}),
        join(work, 'p'),
      ),
    ).rejects.toMatchObject({ name: 'ScaffoldBrokenError', exitCode: 1 });
    expect(await entries(work)).toEqual(before);
  });

  it('fails closed when a packed @cw package is missing', async () => {
    await rm(join(source.packagesDir, 'cw-core-0.1.0.tgz'));
    await expect(
      writePluginScaffold(source, scaffoldOptions('cw-provider-acme', {}), join(work, 'p')),
    ).rejects.toMatchObject({ name: 'ScaffoldBrokenError' });
    expect(await entries(work)).toEqual(['packs']);
  });
});
