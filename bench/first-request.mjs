// Time to first request: from spawning an agent's process to the first byte of its model request
// arriving at a loopback model, for `cw send` and for `codex exec` (OpenAI's agent, a native binary
// installed from npm), with `node -e 0` as the floor. Each agent is pointed at the same local server,
// which answers with a short valid streamed reply in the agent's wire dialect, so both runs end with
// exit 0; the whole run's wall time is recorded too. docs/performance.md, "Time to first request",
// explains how each agent is set up.
// Usage: npm run build && node bench/first-request.mjs   (FIRST_REQUEST_RUNS=7 by default, 7 at least)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const cw = join(root, 'cli', 'bin', 'run.js');
// An obviously fake key: cw and codex send it to the loopback and nowhere else.
const FAKE_KEY = 'sk-test-0000000000000000';
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The Chat Completions stream cw's bench route reads: one text delta, a stop, usage. */
function chatCompletionsReply() {
  const chunk = (delta, finish, usage) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'bench-model',
      choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }],
      ...(usage ? { usage } : {}),
    })}\n\n`;
  return (
    chunk({ role: 'assistant', content: 'ok' }, null) +
    chunk({}, 'stop') +
    chunk(null, null, { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 }) +
    'data: [DONE]\n\n'
  );
}

/** The Responses stream codex reads: created, one assistant message, completed with usage. */
function responsesReply() {
  const event = (type, body) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
  const message = {
    type: 'message',
    id: 'msg_bench',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'ok', annotations: [] }],
  };
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 1,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 11,
  };
  return (
    event('response.created', { response: { id: 'resp_bench', status: 'in_progress' } }) +
    event('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } }) +
    event('response.output_text.delta', { item_id: 'msg_bench', output_index: 0, content_index: 0, delta: 'ok' }) +
    event('response.output_item.done', { output_index: 0, item: message }) +
    event('response.completed', { response: { id: 'resp_bench', status: 'completed', output: [message], usage } })
  );
}

/**
 * A loopback model: answers POST …/chat/completions and POST …/responses with the streams above, and
 * anything else with 404. `waitFor(tag)` resolves with the time the first byte of the next model
 * request tagged `tag` (a path segment of its base URL) reached the socket, and its body's size.
 */
async function startLoopback() {
  const waiting = new Map();
  const others = [];
  const server = createServer((request, response) => {
    const firstByteAt = request.socket.cwFirstByteAt ?? process.hrtime.bigint();
    request.socket.cwFirstByteAt = undefined;
    const [, tag] = request.url.split('/');
    const model = request.method === 'POST' && /\/(chat\/completions|responses)$/.test(request.url);
    let bodyBytes = 0;
    request.on('data', (chunk) => {
      bodyBytes += chunk.length;
    });
    request.on('end', () => {
      if (!model) {
        others.push(`${request.method} ${request.url}`);
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not here"}');
        return;
      }
      waiting.get(tag)?.({ firstByteAt, bodyBytes });
      waiting.delete(tag);
      const body = request.url.endsWith('/responses') ? responsesReply() : chatCompletionsReply();
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }).end(body);
    });
  });
  // The first byte of each request on a connection, before Node parses its headers.
  server.on('connection', (socket) => {
    socket.on('data', () => {
      socket.cwFirstByteAt ??= process.hrtime.bigint();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    others,
    waitFor: (tag) => new Promise((resolve) => waiting.set(tag, resolve)),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Runs one process to its exit: ms to the first model request and its body bytes (null if none), and ms to exit. */
async function runOnce({ command, args, env, cwd, tag }, loopback) {
  const firstRequest = tag === undefined ? null : loopback.waitFor(tag);
  const start = process.hrtime.bigint();
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const err = [];
  child.stdout.resume();
  child.stderr.on('data', (chunk) => err.push(chunk));
  const code = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}: ${Buffer.concat(err)}`);
  let requestMs = null;
  let requestBytes = null;
  if (firstRequest !== null) {
    const seen = await Promise.race([firstRequest, new Promise((resolve) => setTimeout(resolve, 1000, null))]);
    if (seen === null) throw new Error(`${command} exited 0 without sending a model request`);
    requestMs = Number(seen.firstByteAt - start) / 1e6;
    requestBytes = seen.bodyBytes;
  }
  return { requestMs, requestBytes, wallMs };
}

/** The codex executable npm installed for this platform, or undefined when it is not installed. */
function codexLauncher() {
  try {
    return createRequire(join(root, 'bench', 'package.json')).resolve('@openai/codex/bin/codex.js');
  } catch {
    return undefined;
  }
}

/** A scratch CODEX_HOME whose config points codex at the loopback (docs/performance.md). */
function codexHome(scratch, origin) {
  const home = join(scratch, 'codex-home');
  mkdirSync(home, { recursive: true });
  const config = [
    'model = "bench-model"',
    'model_provider = "bench"',
    'approval_policy = "never"',
    'sandbox_mode = "read-only"',
    '',
    '[model_providers.bench]',
    'name = "bench"',
    `base_url = "${origin}/codex/v1"`,
    'env_key = "BENCH_CODEX_KEY"',
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
  writeFileSync(join(home, 'config.toml'), config);
  return home;
}

/** A cw home whose route is the loopback, as bench/conversation.mjs's route but on plain http. */
function cwHome(scratch, origin) {
  const home = join(scratch, 'cw-home');
  mkdirSync(home, { recursive: true });
  const config = {
    route: 'bench',
    routes: {
      bench: {
        provider: 'custom',
        dialect: 'chat-completions',
        base_url: `${origin}/cw/v1`,
        model: 'bench-model',
        api_key_env: 'BENCH_API_KEY',
      },
    },
  };
  writeFileSync(join(home, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  return home;
}

/**
 * Measures the figure: the runners alternate (one warm-up each, then `runs` rounds), medians of each.
 * Returns { runs, floorMs, cw: { requestMs, requestBytes, wallMs }, codex: the same | null, codexSkipped }.
 */
export async function measureFirstRequest({ runs = 7, print = Boolean(process.env.FIRST_REQUEST_PRINT) } = {}) {
  const rounds = Math.max(7, runs);
  const scratch = mkdtempSync(join(tmpdir(), 'cw-first-request-'));
  const loopback = await startLoopback();
  try {
    const workspace = join(scratch, 'workspace');
    mkdirSync(workspace);
    const cwRunner = {
      command: process.execPath,
      args: [cw, 'send', '--prompt', 'hi'],
      env: {
        CW_HOME: cwHome(scratch, loopback.origin),
        CW_DATA_DIR: join(scratch, 'cw-data'),
        BENCH_API_KEY: FAKE_KEY,
      },
      cwd: workspace,
      tag: 'cw',
    };
    const launcher = codexLauncher();
    const codexRunner =
      launcher === undefined
        ? undefined
        : {
            command: process.execPath,
            args: [launcher, 'exec', '--skip-git-repo-check', 'hi'],
            env: { CODEX_HOME: codexHome(scratch, loopback.origin), BENCH_CODEX_KEY: FAKE_KEY },
            cwd: workspace,
            tag: 'codex',
          };
    const floor = { command: process.execPath, args: ['-e', '0'], env: {}, cwd: workspace };
    // FIRST_REQUEST_OCLIF=1 adds cw send the way oclif runs it (CW_NO_FAST_PATH), for comparison.
    const oclifRunner = process.env.FIRST_REQUEST_OCLIF
      ? { ...cwRunner, env: { ...cwRunner.env, CW_NO_FAST_PATH: '1' } }
      : undefined;
    // `print` (FIRST_REQUEST_PRINT=1 when run alone) adds `cw -p hi`, the same turn started the way
    // other agent CLIs start one.
    const printRunner = print ? { ...cwRunner, args: [cw, '-p', 'hi'] } : undefined;
    const runners = {
      floor,
      cw: cwRunner,
      ...(printRunner ? { cwPrint: printRunner } : {}),
      ...(oclifRunner ? { cwOclif: oclifRunner } : {}),
      ...(codexRunner ? { codex: codexRunner } : {}),
    };
    const samples = Object.fromEntries(Object.keys(runners).map((name) => [name, []]));
    for (const runner of Object.values(runners)) await runOnce(runner, loopback);
    for (let round = 0; round < rounds; round += 1)
      for (const [name, runner] of Object.entries(runners)) samples[name].push(await runOnce(runner, loopback));
    const summary = (list) => ({
      requestMs: list[0].requestMs === null ? null : median(list.map((one) => one.requestMs)),
      requestBytes: list[0].requestBytes === null ? null : median(list.map((one) => one.requestBytes)),
      wallMs: median(list.map((one) => one.wallMs)),
    });
    return {
      runs: rounds,
      floorMs: summary(samples.floor).wallMs,
      cw: summary(samples.cw),
      codex: samples.codex ? summary(samples.codex) : null,
      cwOclif: samples.cwOclif ? summary(samples.cwOclif) : null,
      cwPrint: samples.cwPrint ? summary(samples.cwPrint) : null,
      codexSkipped: launcher === undefined ? '@openai/codex is not installed (npm ci installs it)' : null,
      otherRequests: [...new Set(loopback.others)],
    };
  } finally {
    await loopback.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The figure as a Markdown table: the floor, cw and codex, first request and whole run, in ms. */
export function firstRequestTable(result) {
  const ms = (value) => (value === null ? '-' : `${value.toFixed(0)} ms`);
  const bytes = (value) => (value === null ? '-' : `${value.toLocaleString('en-US')} bytes`);
  return [
    `medians of ${result.runs} alternating runs`,
    '| process | first request byte | whole run | first request body |',
    '| --- | --- | --- | --- |',
    `| node -e 0 | - | ${ms(result.floorMs)} | - |`,
    `| cw send --prompt hi | ${ms(result.cw.requestMs)} | ${ms(result.cw.wallMs)} | ${bytes(result.cw.requestBytes)} |`,
    ...(result.cwPrint
      ? [
          `| cw -p hi | ${ms(result.cwPrint.requestMs)} | ${ms(result.cwPrint.wallMs)} | ${bytes(result.cwPrint.requestBytes)} |`,
        ]
      : []),
    ...(result.cwOclif
      ? [
          `| the same through oclif | ${ms(result.cwOclif.requestMs)} | ${ms(result.cwOclif.wallMs)} | ${bytes(result.cwOclif.requestBytes)} |`,
        ]
      : []),
    result.codex === null
      ? `| codex exec hi | skipped: ${result.codexSkipped} | | |`
      : `| codex exec hi | ${ms(result.codex.requestMs)} | ${ms(result.codex.wallMs)} | ${bytes(result.codex.requestBytes)} |`,
    ...(result.otherRequests.length > 0 ? [`other requests, answered 404: ${result.otherRequests.join(', ')}`] : []),
  ];
}

// Run on its own, it prints the figure.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await measureFirstRequest({ runs: Number(process.env.FIRST_REQUEST_RUNS ?? 7) });
  console.log(firstRequestTable(result).join('\n'));
}
