// Bundles the compiled @cw/core and @cw/plugin-kit (their tsc output in dist/) into dist/bundle/, the
// files their package.json exports name: a CLI start-up that imports ~180 small modules spends most of
// its time resolving and loading them, and one file loads much faster. Runs after `tsc -b` on every
// build and starts from an empty dist/bundle/, so a bundle never lags behind the code it was built from.
// The core has two entries: index (what hosts import) and plugin (the plugin contract, @cw/core/plugin).
import { readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));

// `bundled` names the runtime dependencies copied into the bundle; every other one stays an import
// resolved at run time: zod is loaded lazily by the core, and the MCP SDK, ajv and jsonc-parser sit
// behind dynamic import()s that only some commands reach.
const PACKAGES = [
  { folder: 'core', bundled: ['tapable'], entries: ['index', 'plugin'] },
  { folder: 'plugins/plugin-kit', bundled: [], entries: ['index'] },
];

// tapable is CommonJS and calls require('util'); an ESM file has no `require`, and esbuild's shim for
// it reads a `require` in scope, so each output file gets one. The import has a name no module uses;
// a module's own top-level `require` is renamed by esbuild, which sees the shim's use of the name.
const REQUIRE_BANNER =
  "import { createRequire as __cwBundleCreateRequire } from 'node:module';\n" +
  'const require = __cwBundleCreateRequire(import.meta.url);';

/** Builds one package's bundles and fails if one copied in a dependency it should have left external. */
async function bundlePackage({ folder, bundled, entries }) {
  const packageRoot = join(root, folder);
  const pjson = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8'));
  const outdir = join(packageRoot, 'dist', 'bundle');
  await rm(outdir, { recursive: true, force: true });
  const built = [];
  // One build per entry: in a shared build esbuild would move the modules two entries share into a
  // chunk, and the main entry would load that extra file on every start-up.
  for (const entry of entries) built.push(await bundleEntry({ packageRoot, pjson, outdir, bundled, entry }));
  return `${pjson.name}: ${built.join(', ')}`;
}

/** Builds dist/bundle/<entry>.js from dist/<entry>.js; the main entry keeps its dynamic import()s as chunks. */
async function bundleEntry({ packageRoot, pjson, outdir, bundled, entry }) {
  const runtime = Object.keys({ ...pjson.dependencies, ...pjson.peerDependencies, ...pjson.optionalDependencies });
  const result = await build({
    absWorkingDir: packageRoot,
    entryPoints: { [entry]: join(packageRoot, 'dist', `${entry}.js`) },
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Dynamic import()s stay their own files, loaded only when a command reaches them.
    splitting: entry === 'index',
    chunkNames: 'chunks/[name]-[hash]',
    // An external package path covers its subpaths too (ajv/dist/2020.js, @modelcontextprotocol/sdk/...).
    external: runtime.filter((name) => !bundled.includes(name)),
    // Readable stack traces and error messages. Function names are not pinned (keepNames): pinning
    // costs every start a property write and an allocation per function, about a scavenge's worth
    // (docs/performance.md); a name two modules share reads with a number in a stack trace, and the
    // source map gives it back.
    minify: false,
    keepNames: false,
    sourcemap: true,
    // Only the main entry reaches the bundled CommonJS packages (tapable); the plugin entry is types and constants.
    ...(bundled.length > 0 && entry === 'index' ? { banner: { js: REQUIRE_BANNER } } : {}),
    metafile: true,
    logLevel: 'warning',
  });
  // A dependency missing from package.json would resolve from the hoisted node_modules and be copied
  // in silently; only the packages listed in `bundled` may be.
  const strays = new Set();
  for (const input of Object.keys(result.metafile.inputs)) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match !== null && !bundled.includes(match[1])) strays.add(match[1]);
  }
  if (strays.size > 0)
    throw new Error(`${pjson.name}: the ${entry} bundle copied in ${[...strays].join(', ')}; list it in dependencies`);
  const chunks = Object.keys(result.metafile.outputs).filter(
    (file) => file.includes('/chunks/') && file.endsWith('.js'),
  );
  return `${relative(packageRoot, join(outdir, `${entry}.js`))}${chunks.length > 0 ? ` and ${chunks.length} chunks` : ''}`;
}

for (const entry of PACKAGES) console.log(await bundlePackage(entry));
