// Builds what `cw plugins new` writes from (docs/plugin-authors.md, "Start a plugin"): a copy of
// plugin-template/ (sources, tests, fixtures and settings; no build output, no node_modules) and the
// packed tarballs of the @cw packages the template's devDependencies name, so a scaffold installs its
// @cw part from files inside itself and never asks a registry for a package that is not published.
// Output: cli/dist/plugin-scaffold/ (the cli package ships dist/), written beside and renamed into
// place. Runs after the core and the kit are bundled, on every `npm run build`.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const templateRoot = join(root, 'plugin-template');
const target = join(root, 'cli', 'dist', 'plugin-scaffold');
const staging = `${target}.partial`;

// Build output, installed packages and packed tarballs are the author's, made on their machine.
const SKIPPED = /[\\/](node_modules|dist)$|\.tsbuildinfo$|\.tgz$/;

/** The folder of a @cw package in this repository: the core, or a folder under plugins/. */
function workspaceOf(name) {
  const short = name.slice('@cw/'.length);
  return short === 'core' ? 'core' : `plugins/${short}`;
}

const readJson = async (file) => JSON.parse(await readFile(file, 'utf8'));

await rm(staging, { recursive: true, force: true });
await mkdir(join(staging, 'cw-packages'), { recursive: true });
await cp(templateRoot, join(staging, 'template'), {
  recursive: true,
  filter: (source) => !SKIPPED.test(source),
});
// npm leaves every .gitignore out of a package it packs; the scaffold names it back when it writes.
await rename(join(staging, 'template', '.gitignore'), join(staging, 'template', 'gitignore'));

const template = await readJson(join(templateRoot, 'package.json'));
const names = Object.keys(template.devDependencies ?? {})
  .filter((name) => name.startsWith('@cw/'))
  .sort();
const packages = [];
for (const name of names) {
  const folder = workspaceOf(name);
  const pjson = await readJson(join(root, folder, 'package.json'));
  if (pjson.name !== name || pjson.version !== template.devDependencies[name]) {
    throw new Error(`plugin-template wants ${name}@${template.devDependencies[name]}, ${folder} is ${pjson.version}`);
  }
  packages.push({ name, version: pjson.version, folder });
}
// The tarballs npm publish would upload; --ignore-scripts because the build that packs them just ran.
const packed = spawnSync(
  'npm',
  [
    'pack',
    '--ignore-scripts',
    '--json',
    '--pack-destination',
    join(staging, 'cw-packages'),
    ...packages.flatMap(({ folder }) => ['-w', folder]),
  ],
  { cwd: root, encoding: 'utf8', timeout: 120_000 },
);
if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
const files = new Map(JSON.parse(packed.stdout).map((entry) => [entry.name, basename(entry.filename)]));
const listed = packages.map(({ name, version }) => ({ name, version, file: files.get(name) }));
for (const entry of listed) if (!entry.file) throw new Error(`npm pack did not pack ${entry.name}`);
const written = await readdir(join(staging, 'cw-packages'));
if (written.length !== listed.length) throw new Error(`unexpected files in cw-packages: ${written.join(', ')}`);

await writeFile(join(staging, 'scaffold.json'), `${JSON.stringify({ packages: listed }, null, 2)}\n`);
await rm(target, { recursive: true, force: true });
await rename(staging, target);
process.stdout.write(`plugin scaffold: template and ${listed.map((entry) => entry.file).join(', ')}\n`);
