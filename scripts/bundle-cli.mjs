// Bundles the CLI's oclif-free entries into CommonJS files, each with the V8 code cache the build
// makes by running it once (docs/performance.md, "One file, compiled once"), on every `npm run build`,
// after the core is bundled and the checks are recorded:
// - cli/dist/fast-entry.cjs (cli/src/entry/fast-entry.ts: cw preview-request and cw send), with the
//   core and the packages they load; its cache fast-entry.cjs.v8cache from a preview and a send
//   against a local model, and fast-entry.cjs.preview.v8cache from a preview with an empty home
//   alone, which such a preview reads;
// - cli/dist/fast-chat.cjs (cli/src/entry/open-chat.ts: cw chat), the same with the session code,
//   its cache from a chat opened and closed at once; apart, so that a preview does not read and hash
//   the session code;
// - cli/dist/zod.cjs (cli/src/entry/zod-companion.ts), zod, which fast-entry.cjs loads apart the first
//   time the core builds a schema; its cache zod.cjs.v8cache is made by the preview and send above;
// - cli/dist/launch.cjs (cli/src/entry/launch.ts), the small launcher bin/run.js requires.
// The launcher reads the bundles through cli/src/entry/compile-bundle.ts.
import { isAscii } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { devNull, tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = join(root, 'cli', 'dist');
const bundleFile = join(dist, 'fast-entry.cjs');
const cacheFile = join(dist, 'fast-entry.cjs.v8cache');
// A preview with no config file reads a cache made from such a preview alone (cli/src/entry/load-fast-entry.ts).
const previewCacheFile = join(dist, 'fast-entry.cjs.preview.v8cache');
const zodBundleFile = join(dist, 'zod.cjs');
const chatBundleFile = join(dist, 'fast-chat.cjs');
const chatCacheFile = join(dist, 'fast-chat.cjs.v8cache');
// The generic loader: the children compile the bundles with it, and the build writes its wrapper.
const compileBundleModule = join(dist, 'entry', 'compile-bundle.js');

// Left to be loaded at run time, from the cli's folder: packages only some commands reach (MCP, the
// tool argument checks, the offline tokenizer with its large tables, the Markdown renderer's libraries,
// which a reply on a terminal loads and a preview or a send off a terminal never does).
const EXTERNAL = ['ajv', '@modelcontextprotocol/sdk', 'gpt-tokenizer', 'marked', 'highlight.js'];

// The core loads zod with a require of its own, on first use (core/src/validation/lazy-zod.ts); in
// the bundle it is a plain require, so zod is bundled too and still runs only when first used. The
// core bundle's own `require` (scripts/bundle-packages.mjs, REQUIRE_BANNER) is the CommonJS one here.
const ZOD_REQUIRE = /\brequireFromCore\("zod"\)/g;
const CORE_REQUIRE_BANNER =
  "import { createRequire as __cwBundleCreateRequire } from 'node:module';\nconst require = __cwBundleCreateRequire(import.meta.url);";

/**
 * cli/src/entry/builtin-entries.ts as the bundle has it: each built-in plugin of cli/package.json with its
 * version, its `cw.register` and a require of that entry, which esbuild bundles and runs on first use.
 */
function builtinEntriesModule() {
  const cliRoot = join(root, 'cli');
  const cli = JSON.parse(readFileSync(join(cliRoot, 'package.json'), 'utf8'));
  const requireFromCli = createRequire(join(cliRoot, 'package.json'));
  const rows = [];
  for (const name of cli.oclif.plugins.filter((listed) => !listed.startsWith('@oclif/'))) {
    const manifestFile = requireFromCli.resolve(`${name}/package.json`);
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    if (typeof manifest.cw?.register !== 'string') continue;
    const entry = join(dirname(manifestFile), manifest.cw.register);
    rows.push(
      `[${JSON.stringify(name)}, { version: ${JSON.stringify(manifest.version)}, register: ${JSON.stringify(manifest.cw.register)}, load: () => require(${JSON.stringify(entry)}) }]`,
    );
  }
  return `export const builtinEntries = new Map([\n${rows.join(',\n')}\n]);\n`;
}

// zod's index requires its ~50 translations of error messages, which cost as much to run as the rest
// of zod; cw reads none of them (its messages are English, the default zod sets up on its own). In
// the bundle, the translations zod exports as `locales` are loaded the first time one is read.
const ZOD_LOCALES = /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.cjs$/;
const lazyLocales = (real) =>
  `let loaded;\nconst real = () => (loaded ??= require(${JSON.stringify(real)}));\n` +
  'module.exports = new Proxy({ __esModule: true }, {\n' +
  "  get: (target, key) => (key === '__esModule' ? true : Reflect.get(real(), key)),\n" +
  '  has: (target, key) => Reflect.has(real(), key),\n' +
  '  ownKeys: () => Reflect.ownKeys(real()),\n' +
  '  getOwnPropertyDescriptor: (target, key) => {\n' +
  "    if (key === '__esModule') return Reflect.getOwnPropertyDescriptor(target, key);\n" +
  '    const found = Reflect.getOwnPropertyDescriptor(real(), key);\n' +
  // A proxy may not call a property it does not have non-configurable.
  '    return found === undefined ? undefined : { ...found, configurable: true };\n' +
  '  },\n' +
  '});\n';

/**
 * Builds one entry's bundle: CommonJS, so that it can be compiled with a code cache (vm.Script).
 * `caches` are the cache files made from an older bundle, removed first. With `zodApart`, the core's
 * zod is the companion bundle zod.cjs (compile-bundle.ts, `__cwBundle`) instead of part of this one.
 */
async function bundle(entry, outfile, caches, { zodApart = false } = {}) {
  for (const file of caches) rmSync(file, { force: true });
  const zodRequire = zodApart ? '__cwBundle("zod")' : 'require("zod")';
  await build({
    absWorkingDir: join(root, 'cli'),
    entryPoints: [join(dist, 'entry', entry)],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: zodApart ? [...EXTERNAL, 'zod'] : EXTERNAL,
    // An ES module build where a package has one: jsonc-parser's main file is a UMD wrapper whose
    // requires esbuild cannot follow.
    mainFields: ['module', 'main'],
    // Every module sees the bundle's own URL: the files they find beside them (checked-values.json)
    // are in the same dist folder.
    define: {
      'import.meta.url': '__cwImportMetaUrl',
      // The core compiled in is this version, whatever package sits beside the bundle later
      // (core/src/core-version.ts): nothing to resolve and read at run time.
      __CW_CORE_VERSION__: JSON.stringify(JSON.parse(readFileSync(join(root, 'core', 'package.json'), 'utf8')).version),
    },
    banner: { js: 'var __cwImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [
      {
        name: 'cw-bundle-sources',
        setup(plugin) {
          plugin.onResolve({ filter: /locales[\\/]index\.cjs$/ }, (args) => {
            const path = join(args.resolveDir, args.path);
            // The real file itself, required by the stand-in, is bundled as it is.
            if (args.pluginData === 'real' || !ZOD_LOCALES.test(path)) return undefined;
            return { path, namespace: 'cw-lazy-locales' };
          });
          plugin.onLoad({ filter: /.*/, namespace: 'cw-lazy-locales' }, (args) => ({
            contents: lazyLocales(args.path),
            loader: 'js',
            resolveDir: dirname(args.path),
            pluginData: 'real',
          }));
          plugin.onLoad({ filter: /cli[\\/]dist[\\/]entry[\\/]builtin-entries\.js$/ }, () => ({
            contents: builtinEntriesModule(),
            loader: 'js',
            resolveDir: dist,
          }));
          plugin.onLoad({ filter: /core[\\/]dist[\\/]bundle[\\/].*\.js$/ }, (args) => ({
            contents: readFileSync(args.path, 'utf8').replace(CORE_REQUIRE_BANNER, '').replace(ZOD_REQUIRE, zodRequire),
            loader: 'js',
          }));
        },
      },
    ],
    minify: false,
    // As the core's bundle (scripts/bundle-packages.mjs): no pinned function names, which would cost
    // every start a property write per function.
    keepNames: false,
    logLevel: 'warning',
  });
  // A script compiled with a code cache cannot import(): V8 drops the callback Node needs for it
  // (vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER is experimental in Node 20 and warns on stderr).
  // The bundle's few dynamic imports (externals, node: modules, plugin entries) go through a
  // function the loader passes in; any other `import(` left would fail at run time, so the build does.
  const isComment = (line) => /^\s*(\/\/|\*|\/\*)/.test(line);
  // esbuild writes strings and regular expressions in ASCII; comments it keeps as written. An ASCII
  // file is read as Latin-1, several times faster than UTF-8 (cli/src/entry/load-fast-entry.ts).
  const text = readFileSync(outfile, 'utf8')
    .replace(/\bawait import\(/g, 'await __cwImport(')
    .split('\n')
    .map((line) => (isComment(line) ? line.replace(/[^\x00-\x7f]/g, '?') : line))
    .join('\n');
  if (!isAscii(Buffer.from(text))) throw new Error(`the bundle of ${entry} has a character outside ASCII in its code`);
  const code = text.split('\n').filter((line) => !isComment(line));
  if (code.some((line) => /(?<![\w$.])import\s*\(/.test(line)))
    throw new Error(`the bundle of ${entry} has an import() the loader cannot serve`);
  // A require of a relative path esbuild could not follow would fail at run time, away from its package.
  if (code.some((line) => /\brequire\d*\("\.\.?\//.test(line)))
    throw new Error(`the bundle of ${entry} requires a relative path it does not hold`);
  // A zod of its own beside the companion's would be a second copy of zod's classes, and uncached.
  if (zodApart && code.some((line) => /\brequire\d*\("zod(\/[^"]*)?"\)/.test(line)))
    throw new Error(`the bundle of ${entry} requires zod beside the companion bundle`);
  const { BUNDLE_HEAD, BUNDLE_TAIL } = await import(compileBundleModule);
  writeFileSync(outfile, `${BUNDLE_HEAD}${text}${BUNDLE_TAIL}`);
}

/**
 * Runs a bundle in a child process with a scratch home and writes the code cache V8 makes of
 * everything that ran: `--produce-cache`, a preview and a send on a home whose config names a custom
 * route (so the config checks run too) at a local model the child starts; `--produce-preview-cache`,
 * a preview with the empty home; `--produce-chat-cache`, a chat opened and closed at once.
 */
function produceCache(mode) {
  const scratch = mkdtempSync(join(tmpdir(), 'cw-code-cache-'));
  try {
    const home = join(scratch, 'home');
    mkdirSync(home);
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), mode], {
      cwd: gitWorkspace(scratch),
      env: { ...process.env, CW_HOME: home, CW_DATA_DIR: join(scratch, 'data'), CW_CODE_CACHE_KEY: FAKE_KEY },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (run.status !== 0) throw new Error(`producing the code cache failed (exit ${run.status})`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The folder the child runs in: a small git repository with one clean commit when the git program is
 * here, so the cache holds the code a preview runs to read a repository's state (most workspaces are
 * one); otherwise a plain folder, and that code is compiled when it first runs.
 */
function gitWorkspace(scratch) {
  const workspace = join(scratch, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.md'), 'A workspace the code cache is made in.\n');
  const git = (...args) =>
    spawnSync('git', ['-c', 'user.name=cw', '-c', 'user.email=cw@example.invalid', ...args], {
      cwd: workspace,
      env: { PATH: process.env.PATH ?? '', HOME: scratch, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: devNull },
      stdio: 'ignore',
    }).status === 0;
  if (!(git('init', '-q') && git('add', 'README.md') && git('commit', '-q', '-m', 'cache'))) {
    rmSync(join(workspace, '.git'), { recursive: true, force: true });
  }
  return workspace;
}

// The key the child's route sends to its own local model: plainly not a real one.
const FAKE_KEY = `sk-test-${'0'.repeat(24)}`;

/** A local model for the child's send: one short Chat Completions stream for every request. */
async function startLocalModel() {
  const chunk = (value) => `data: ${JSON.stringify(value)}\n\n`;
  const reply =
    chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }] }) +
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
    'data: [DONE]\n\n';
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'text/event-stream' }).end(reply));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/**
 * In the child: compiles `bundle`, and writes the code cache V8 made of what ran of it to `file`
 * when the process ends well, atomically.
 */
async function compiledWithCacheAtExit(bundle, file) {
  const { compileBundle, cacheFileBytes } = await import(compileBundleModule);
  // The companion bundles the run compiles (zod.cjs) get theirs too, beside them.
  const cacheAtExit = (compiled, bundleFile, cacheFile) =>
    process.on('exit', (code) => {
      if (code !== 0) return;
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(temporary, cacheFileBytes(readFileSync(bundleFile), compiled.script.createCachedData()));
      renameSync(temporary, cacheFile);
    });
  return compileBundle(bundle, file, { compiled: cacheAtExit });
}

/** In the child: compile the bundle, run a preview with an empty home, write its cache when the process ends. */
async function previewCacheChild() {
  const compiled = await compiledWithCacheAtExit(bundleFile, previewCacheFile);
  if (!(await compiled.exports.fastPreview(['json', '--prompt', 'hi']))) throw new Error('the preview declined');
}

/** In the child: compile the bundle, run a preview and a send, write the cache when the process ends. */
async function cacheChild() {
  const server = await startLocalModel();
  const config = {
    route: 'cache',
    routes: {
      cache: {
        provider: 'custom',
        dialect: 'chat-completions',
        base_url: `http://127.0.0.1:${server.address().port}/v1`,
        model: 'm',
        api_key_env: 'CW_CODE_CACHE_KEY',
      },
    },
  };
  writeFileSync(join(process.env.CW_HOME, 'config.json'), JSON.stringify(config));
  const compiled = await compiledWithCacheAtExit(bundleFile, cacheFile);
  try {
    if (!(await compiled.exports.fastPreview(['json', '--prompt', 'hi']))) throw new Error('the preview declined');
    if (!(await compiled.exports.fastSend(['--prompt', 'hi']))) throw new Error('the send declined');
  } finally {
    server.close();
  }
}

/**
 * In the child: compile the chat bundle, open a chat on an input that ends at once, so the session
 * shows its banner and prompt and closes, and write the cache at exit. The home's config names a
 * route, as a person's does, so the config checks are in the cache too; an empty home's chat is no
 * slower for it. Nothing is sent: the session ends before any turn.
 */
async function chatCacheChild() {
  const route = { provider: 'custom', dialect: 'chat-completions', base_url: 'http://127.0.0.1:9/v1', model: 'm' };
  const config = { route: 'cache', routes: { cache: { ...route, api_key_env: 'CW_CODE_CACHE_KEY' } } };
  writeFileSync(join(process.env.CW_HOME, 'config.json'), JSON.stringify(config));
  const compiled = await compiledWithCacheAtExit(chatBundleFile, chatCacheFile);
  // A session that did not end with its input would hold the build: it fails instead.
  setTimeout(() => {
    console.error('the chat did not end with its input');
    process.exit(1);
  }, 60_000).unref();
  // The entry opens a session on a terminal only: the child's empty input and output stand in for one.
  process.stdin.isTTY = true;
  process.stdout.isTTY = true;
  if (!(await compiled.exports.openChat([]))) throw new Error('the chat entry declined');
}

/**
 * Bundles cli/src/entry/launch.ts, what bin/run.js runs after `--version`, with what it imports
 * statically into one small CommonJS file, dist/launch.cjs: bin/run.js requires it without setting up
 * Node's ES module loader. The entries it reaches with import() (chat, acp, oclif, the compiled
 * fallbacks) stay separate files, found from the bundle's folder.
 */
async function bundleLauncher() {
  await build({
    absWorkingDir: join(root, 'cli'),
    entryPoints: [join(dist, 'entry', 'launch.js')],
    outfile: join(dist, 'launch.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // package-folder.ts finds the package two folders up from its module, which the bundle is.
    define: { 'import.meta.url': '__cwImportMetaUrl' },
    banner: { js: 'var __cwImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [
      {
        name: 'cw-launcher-imports',
        setup(plugin) {
          plugin.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind !== 'dynamic-import') return undefined;
            if (!args.path.startsWith('.')) return { path: args.path, external: true };
            const target = join(args.resolveDir, args.path);
            return { path: `./${relative(dist, target).split(sep).join('/')}`, external: true };
          });
        },
      },
    ],
    minify: false,
    keepNames: true,
    logLevel: 'warning',
  });
}

if (process.argv[2] === '--produce-cache') await cacheChild();
else if (process.argv[2] === '--produce-preview-cache') await previewCacheChild();
else if (process.argv[2] === '--produce-chat-cache') await chatCacheChild();
else {
  await bundle('zod-companion.js', zodBundleFile, [`${zodBundleFile}.v8cache`]);
  await bundle('fast-entry.js', bundleFile, [cacheFile, previewCacheFile], { zodApart: true });
  produceCache('--produce-cache');
  produceCache('--produce-preview-cache');
  await bundle('open-chat.js', chatBundleFile, [chatCacheFile]);
  produceCache('--produce-chat-cache');
  await bundleLauncher();
  console.log('@cw/cli: dist/fast-entry.cjs, dist/zod.cjs, dist/fast-chat.cjs and their code caches, dist/launch.cjs');
}
