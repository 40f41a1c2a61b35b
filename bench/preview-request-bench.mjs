// Measures previewRequest in process: the default route (no offline tokenizer), the same route with
// a long history, and a route whose row names an offline tokenizer (first call, which loads the
// encoder, and warm calls). Whole-CLI wall time is measured separately with hyperfine:
//   hyperfine -N --warmup 2 'node cli/bin/run.js preview-request json --prompt "fix the failing test"'
// Usage: npm run build && node bench/preview-request-bench.mjs
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPlugins, loadSnapshot, previewRequest, tapCoreStages } from '../core/dist/index.js';

const RUNS = Number(process.env.RUNS ?? 21);
const root = fileURLToPath(new URL('../', import.meta.url));

async function registry() {
  const folder = join(root, 'plugins');
  const descriptors = [];
  for (const name of (await readdir(folder)).sort()) {
    const pjson = JSON.parse(await readFile(join(folder, name, 'package.json'), 'utf8'));
    // Helper packages such as plugin-kit are not cw plugins.
    if (pjson.cw === undefined) continue;
    descriptors.push({
      name: pjson.name,
      version: pjson.version,
      root: join(folder, name),
      cw: pjson.cw,
      type: 'core',
    });
  }
  const loaded = await loadPlugins(descriptors);
  tapCoreStages(loaded);
  loaded.apiFor('@cw/bench-rows').addRoute({
    provider_id: 'bench',
    provider_display: 'Bench',
    route_id: 'bench-o200k',
    dialect: 'openai-responses',
    route_shape: 'standard',
    endpoint: { base_url: 'https://api.bench.test/v1', path: '/responses' },
    auth: { scheme: 'bearer', api_key_env: 'BENCH_KEY', headers: {} },
    model: { default: 'bench-model', wire_map: {}, catalog: ['bench-model'] },
    context: { window_tokens: 400_000, source: 'catalog', input_limit_tokens: null, output_limit_tokens: null },
    output_cap: { field: 'max_output_tokens', default_tokens: 8_192 },
    billing: { kind: 'metered' },
    tool_schema: { dialect: 'object-root', root_must_be_object: true },
    tool_choice: { accepted: ['auto', 'none', 'required', 'named'], fallback: {} },
    reasoning: null,
    tokenizer: 'o200k_base',
    provenance: { source: 'bench fixture' },
  });
  return loaded;
}

function median(run) {
  const times = [];
  for (let index = 0; index < RUNS; index += 1) {
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

async function home(config, messages) {
  const folder = await mkdtemp(join(tmpdir(), 'cw-bench-'));
  if (config) await writeFile(join(folder, 'config.json'), JSON.stringify(config));
  if (messages) {
    await mkdir(join(folder, 'sessions'));
    await writeFile(join(folder, 'sessions', 'default.json'), JSON.stringify({ version: 1, messages }));
  }
  return folder;
}

const loaded = await registry();
const history = Array.from({ length: 200 }, (_, index) => ({
  role: index % 2 ? 'assistant' : 'user',
  content: `step ${index}: ${'lorem ipsum dolor '.repeat(60)}`,
}));
const homes = [
  await home(),
  await home(undefined, history),
  await home({ route: 'bench-o200k' }),
  await home({ route: 'bench-o200k' }, history),
];
const [plain, long, tokenized, tokenizedLong] = await Promise.all(
  homes.map((folder) => loadSnapshot({ home: folder, registry: loaded, defaultRouteId: 'deepseek' })),
);
const prompt = 'fix the failing test';

console.log(`default route, empty session: ${median(() => previewRequest(plain, prompt, 'streaming')).toFixed(2)} ms`);
console.log(
  `default route, 200 messages (~${Math.round(JSON.stringify(history).length / 1000)} kB): ${median(() => previewRequest(long, prompt, 'streaming')).toFixed(2)} ms`,
);
const first = process.hrtime.bigint();
previewRequest(tokenized, prompt, 'streaming');
console.log(
  `o200k_base route, first call (loads the encoder): ${(Number(process.hrtime.bigint() - first) / 1e6).toFixed(1)} ms`,
);
console.log(
  `o200k_base route, warm, empty session: ${median(() => previewRequest(tokenized, prompt, 'streaming')).toFixed(2)} ms`,
);
console.log(
  `o200k_base route, warm, 200 messages: ${median(() => previewRequest(tokenizedLong, prompt, 'streaming')).toFixed(2)} ms`,
);
console.log(
  `o200k_base route, counts skipped (as cw send does): ${median(() => previewRequest(tokenizedLong, prompt, 'streaming', { offlineTokenizer: false })).toFixed(2)} ms`,
);
await Promise.all(homes.map((folder) => rm(folder, { recursive: true, force: true })));
