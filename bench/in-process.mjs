// One size of the in-process figures: cw's previewRequest against the floor (JSON.stringify and a
// node:crypto SHA-256 of the same body) and against the Vercel AI SDK's generateText with a stub fetch,
// on the same conversation and tools. Runs alternate (floor, cw, cw cold, AI SDK, ...) with a GC before
// each. `cw` previews the same conversation every run, as an agent loop's next step or a session's next
// turn does: what cw keeps per process (docs/performance.md) is reused. `cw cold` previews a conversation
// whose first message the process has not seen, so none of its history can be: the serialization work
// of a first preview, with the JIT warm.
// Usage: node --expose-gc bench/in-process.mjs <turns> <runs>; prints one JSON object.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, tool } from 'ai';
// The bundle, the file @cw/core's exports name: the plugins loaded here import @cw/core, and one copy
// of the core in the process keeps its classes the same for both.
import {
  BUNDLED_BASE_PROMPT,
  loadPlugins,
  loadSnapshot,
  previewRequest,
  tapCoreStages,
} from '../core/dist/bundle/index.js';
import { aiSdkMessages, BENCH_CONFIG, benchTools, sessionMessages } from './conversation.mjs';

const turns = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 5);
const prompt = 'hi';
const root = fileURLToPath(new URL('../', import.meta.url));

async function registry() {
  const folder = join(root, 'plugins');
  const descriptors = [];
  for (const name of (await readdir(folder)).sort()) {
    const pjson = JSON.parse(await readFile(join(folder, name, 'package.json'), 'utf8'));
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
  const api = loaded.apiFor('@cw/bench-tools');
  for (const definition of benchTools())
    api.addTool({ ...definition, readOnly: true, execute: async () => ({ status: 'ok', content: '' }) });
  return loaded;
}

const messages = sessionMessages(turns);
const home = await mkdtemp(join(tmpdir(), 'cw-bench-'));
await mkdir(join(home, 'sessions'));
await writeFile(join(home, 'config.json'), JSON.stringify(BENCH_CONFIG));
await writeFile(join(home, 'sessions', 'default.json'), JSON.stringify({ version: 1, messages }));
const loaded = await registry();
const snapshot = await loadSnapshot({ home, registry: loaded, defaultRouteId: 'deepseek' });
await rm(home, { recursive: true, force: true });

const first = previewRequest(snapshot, prompt, 'streaming');
if (first.prepared === null) throw new Error(`preview is blocked: ${first.plan.reason}`);
const body = first.prepared.body;
const bodyBytes = Buffer.byteLength(first.prepared.canonical.wireText);
const toolCount = first.prepared.projection.wireTools.length;

let captured = null;
const canned = JSON.stringify({
  id: 'bench',
  object: 'chat.completion',
  created: 0,
  model: 'bench-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'done' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});
const provider = createOpenAICompatible({
  name: 'bench',
  baseURL: 'https://api.bench.test/v1',
  apiKey: 'bench-key',
  fetch: async (_url, init) => {
    captured = init.body;
    return new Response(canned, { status: 200, headers: { 'content-type': 'application/json' } });
  },
});
const sdkTools = Object.fromEntries(
  snapshot.catalog.map((definition) => [
    definition.name,
    tool({ description: definition.description, inputSchema: jsonSchema(definition.input_schema) }),
  ]),
);
const sdkMessages = aiSdkMessages(messages, prompt);
const sdkCall = () =>
  generateText({
    model: provider.chatModel('bench-model'),
    system: BUNDLED_BASE_PROMPT,
    messages: sdkMessages,
    tools: sdkTools,
    maxRetries: 0,
  });
await sdkCall();
const sdkBodyBytes = Buffer.byteLength(captured);

async function timed(work) {
  globalThis.gc?.();
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// The same snapshot with a first message no earlier preview had: frozen, as a stored session's are.
function unseen(run) {
  const [opening, ...rest] = snapshot.session.messages;
  const changed = Object.freeze({ ...opening, content: `${opening.content} (run ${run})` });
  return { ...snapshot, session: { ...snapshot.session, messages: Object.freeze([changed, ...rest]) } };
}

// One untimed round first (two at the small sizes), so every side is measured warm; only the rounds
// after them count.
const warmups = turns >= 10_000 ? 1 : 2;
const times = { floor: [], cw: [], cwCold: [], sdk: [] };
for (let run = -warmups; run < runs; run += 1) {
  const floor = await timed(() =>
    createHash('sha256')
      .update(Buffer.from(JSON.stringify(body)))
      .digest('hex'),
  );
  const cw = await timed(() => previewRequest(snapshot, prompt, 'streaming'));
  const coldSnapshot = unseen(run);
  const cwCold = await timed(() => previewRequest(coldSnapshot, prompt, 'streaming'));
  const sdk = await timed(sdkCall);
  if (run < 0) continue;
  times.floor.push(floor);
  times.cw.push(cw);
  times.cwCold.push(cwCold);
  times.sdk.push(sdk);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  JSON.stringify({
    turns,
    runs,
    tools: toolCount,
    body_bytes: bodyBytes,
    sdk_body_bytes: sdkBodyBytes,
    floor_ms: median(times.floor),
    cw_ms: median(times.cw),
    cw_cold_ms: median(times.cwCold),
    sdk_ms: median(times.sdk),
  }),
);
