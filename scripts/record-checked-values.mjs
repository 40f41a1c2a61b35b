// Records the schema checks a preview of the built-in plugins makes, so that the CLI answers them
// without loading zod (docs/performance.md, "Checks answered from the build"): every row each
// built-in plugin registers, each route resolved with each model its row names, and the empty
// config. Run by `npm run build`; writes cli/dist/checked-values.json, or the file named as its argument.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliRoot = fileURLToPath(new URL('../cli/', import.meta.url));
const requireFromCli = createRequire(join(cliRoot, 'package.json'));
const core = await import(requireFromCli.resolve('@cw/core'));

const cliPackage = JSON.parse(await readFile(join(cliRoot, 'package.json'), 'utf8'));
const corePackage = JSON.parse(await readFile(requireFromCli.resolve('@cw/core/package.json'), 'utf8'));

const descriptors = [];
// oclif's own plugins (their package.json is not exported) register nothing with cw.
for (const name of cliPackage.oclif.plugins.filter((listed) => !listed.startsWith('@oclif/'))) {
  const manifestFile = requireFromCli.resolve(`${name}/package.json`);
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  if (manifest.cw === undefined) continue;
  descriptors.push({ name, version: manifest.version, root: dirname(manifestFile), cw: manifest.cw, type: 'core' });
}

const stop = core.recordCheckedValues();
const emptyHome = await mkdtemp(join(tmpdir(), 'cw-record-'));
let config;
try {
  config = await core.loadConfig(emptyHome);
} finally {
  await rm(emptyHome, { recursive: true, force: true });
}
const registry = await core.loadPlugins(descriptors);
core.tapCoreStages(registry);
if (registry.problems.length > 0) {
  throw new Error(
    `built-in plugins reported problems: ${registry.problems.map((p) => `${p.plugin} ${p.code}`).join(', ')}`,
  );
}
for (const row of registry.rows) {
  const models = new Set([row.model.default, ...row.model.catalog, ...row.models.flatMap((model) => model.match.ids)]);
  for (const model of models) {
    try {
      core.resolveRoute(registry.hooks, {
        routeId: row.route_id,
        config: { ...config, route: row.route_id, model },
        row: (id) => registry.row(id),
      });
    } catch {
      // A route that does not resolve with this model is checked by the schema itself at run time.
    }
  }
}
const values = stop();
const out = process.argv[2] ?? join(cliRoot, 'dist', 'checked-values.json');
await writeFile(out, `${JSON.stringify({ ...values, core: corePackage.version })}\n`);
