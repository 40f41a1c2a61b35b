// npm run bench: every performance figure of cw as a ratio against its yardstick, measured in the same
// run (A and B alternate, medians compared), printed as a table against its target and written to
// bench/results.json. docs/performance.md explains each figure and quotes a run.
// Usage: npm run build && node bench/run-bench.mjs   (CLI_RUNS=10 and IN_PROCESS_RUNS=7 by default)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_CONFIG, sessionMessages } from './conversation.mjs';
import { measureEntryStart } from './entry-start.mjs';
import { firstRequestTable, measureFirstRequest } from './first-request.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const CLI_RUNS = Math.max(10, Number(process.env.CLI_RUNS ?? 10));
const IN_PROCESS_RUNS = Number(process.env.IN_PROCESS_RUNS ?? 7);
const SESSION_TURNS = 14_000; // about 20 MB of session file, as cw writes it
const cw = join(root, 'cli', 'bin', 'run.js');
const scratch = mkdtempSync(join(tmpdir(), 'cw-bench-'));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs one process to its exit; wall milliseconds and, when asked, its peak RSS in kB. */
function runOnce(args, env, measureRss) {
  const rssFile = join(scratch, 'rss');
  rmSync(rssFile, { force: true });
  const childEnv = { ...process.env, ...env, ...(measureRss ? { CW_BENCH_RSS_FILE: rssFile } : {}) };
  const argv = measureRss ? ['--import', join(root, 'bench', 'report-peak-rss.mjs'), ...args] : args;
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, argv, { cwd: root, env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, rssKb: measureRss ? Number(readFileSync(rssFile, 'utf8')) : null };
}

/** A and B alternate, one warm-up each; medians of `runs`. */
function paired(a, b, { runs = CLI_RUNS, measureRss = false } = {}) {
  runOnce(a.args, a.env, measureRss);
  runOnce(b.args, b.env, measureRss);
  const samples = { a: [], b: [], aRss: [], bRss: [] };
  for (let run = 0; run < runs; run += 1) {
    const one = runOnce(a.args, a.env, measureRss);
    const two = runOnce(b.args, b.env, measureRss);
    samples.a.push(one.ms);
    samples.b.push(two.ms);
    samples.aRss.push(one.rssKb);
    samples.bRss.push(two.rssKb);
  }
  return {
    aMs: median(samples.a),
    bMs: median(samples.b),
    aRssMb: measureRss ? median(samples.aRss) / 1024 : null,
    bRssMb: measureRss ? median(samples.bRss) / 1024 : null,
  };
}

function inProcess(turns, runs) {
  const result = spawnSync(
    process.execPath,
    ['--expose-gc', join(root, 'bench', 'in-process.mjs'), String(turns), String(runs)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  if (result.status !== 0) throw new Error(`in-process bench at ${turns} turns failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

const figures = [];
function figure(name, ratio, target, detail) {
  figures.push({ figure: name, ratio: Number(ratio.toFixed(3)), target, met: ratio <= target, detail });
  console.error(`  ${name}: ${ratio.toFixed(2)}x (target <= ${target})`);
}

console.error(`cw bench: ${CLI_RUNS} process runs per CLI figure, ${IN_PROCESS_RUNS} in-process runs (fewer at 29 MB)`);
const floor = { args: ['-e', '0'], env: {} };
const emptyHome = join(scratch, 'empty-home');
mkdirSync(emptyHome);

const preview = paired({ args: [cw, 'preview-request', 'json', '--prompt', 'hi'], env: { CW_HOME: emptyHome } }, floor);
figure('cw preview-request json --prompt hi / node -e 0', preview.aMs / preview.bMs, 2.0, preview);
const version = paired({ args: [cw, '--version'], env: { CW_HOME: emptyHome } }, floor);
figure('cw --version / node -e 0', version.aMs / version.bMs, 1.6, version);
// Until a person can type (the prompt shows in a pseudo-terminal) and until an editor is answered
// (bench/entry-start.mjs); the yardstick is started the same way.
const entry = await measureEntryStart({ runs: CLI_RUNS });
figure('cw chat until its prompt shows / node -e 0, in a terminal', entry.chat.aMs / entry.chat.bMs, 2.5, entry.chat);
figure('cw acp until it answers initialize / node -e 0', entry.acp.aMs / entry.acp.bMs, 2.5, entry.acp);

// Time to the first request byte at a loopback model, cw send against codex exec (bench/first-request.mjs).
const first = await measureFirstRequest({
  runs: Math.max(7, Number(process.env.FIRST_REQUEST_RUNS ?? 7)),
  print: true,
});
if (first.codex !== null) {
  figure('cw send / codex exec, to the first request byte', first.cw.requestMs / first.codex.requestMs, 1.0, first);
  // The same turn as `cw -p hi`, the way a person starts one headless (docs/cli.md, "Starting cw").
  figure('cw -p / codex exec, to the first request byte', first.cwPrint.requestMs / first.codex.requestMs, 1.0, first);
  // The first request of the same one-word prompt: cw's must stay the smaller (docs/performance.md).
  figure(
    'cw send / codex exec, first request body bytes',
    first.cw.requestBytes / first.codex.requestBytes,
    1.0,
    first,
  );
} else console.error(`  cw send / codex exec: skipped, ${first.codexSkipped}`);
console.error(`  ${firstRequestTable(first).join('\n  ')}`);

const sizes = [
  { turns: 20_000, runs: Math.min(3, IN_PROCESS_RUNS) },
  { turns: 1_000, runs: IN_PROCESS_RUNS },
  // A run at 0.03 MB takes a few milliseconds: more of them keep its median steady on a busy machine.
  { turns: 0, runs: IN_PROCESS_RUNS * 9 },
];
const measured = sizes.map(({ turns, runs }) => inProcess(turns, runs));
const [large, middle, small] = measured;
const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
figure(`previewRequest / (stringify + sha256), ${mb(large.body_bytes)}`, large.cw_ms / large.floor_ms, 2.0, large);
figure(`previewRequest / (stringify + sha256), ${mb(middle.body_bytes)}`, middle.cw_ms / middle.floor_ms, 3.0, middle);
// The same with a history the process has not seen, so nothing of it is reused (docs/performance.md).
figure(
  `cold previewRequest / (stringify + sha256), ${mb(large.body_bytes)}`,
  large.cw_cold_ms / large.floor_ms,
  2.0,
  large,
);
figure(
  `cold previewRequest / (stringify + sha256), ${mb(middle.body_bytes)}`,
  middle.cw_cold_ms / middle.floor_ms,
  3.0,
  middle,
);

const sessionHome = join(scratch, 'session-home');
// cw keeps sessions per workspace (docs/cli.md, "Sessions"); cw runs from the repository here, so the
// session goes in the repository's folder, and one preview checks that cw really read all of it.
const { workspaceRoot } = await import(new URL('../core/dist/bundle/index.js', import.meta.url).href);
// Not part of the public surface: the compiled module, as sse-reader-bench.mjs reads its own.
const { workspaceKeyOf } = await import(new URL('../core/dist/state/session-location.js', import.meta.url).href);
const sessionsFolder = join(sessionHome, 'sessions', workspaceKeyOf(await workspaceRoot(undefined, root)));
mkdirSync(sessionsFolder, { recursive: true });
writeFileSync(join(sessionHome, 'config.json'), JSON.stringify(BENCH_CONFIG));
const sessionFile = join(sessionsFolder, 'default.json');
const stored = sessionMessages(SESSION_TURNS);
writeFileSync(sessionFile, `${JSON.stringify({ version: 1, messages: stored }, null, 2)}\n`);
const probe = spawnSync(process.execPath, [cw, 'preview-request', 'json', '--prompt', 'hi'], {
  cwd: root,
  env: { ...process.env, CW_HOME: sessionHome },
  encoding: 'utf8',
  maxBuffer: 1 << 26,
});
const seen = probe.status === 0 ? JSON.parse(probe.stdout).session?.stored_message_count : undefined;
if (seen !== stored.length)
  throw new Error(`cw read ${seen} of the ${stored.length} session messages; the figure would be wrong`);
const oneLiner = {
  args: [
    '-e',
    "const t=require('fs').readFileSync(process.env.SESSION,'utf8');const s=JSON.stringify(JSON.parse(t));" +
      "require('crypto').createHash('sha256').update(Buffer.from(s)).digest('hex')",
  ],
  env: { SESSION: sessionFile },
};
const session = paired(
  { args: [cw, 'preview-request', 'json', '--prompt', 'hi'], env: { CW_HOME: sessionHome } },
  oneLiner,
  { measureRss: true },
);
const sessionMb = mb(readFileSync(sessionFile).length);
figure(
  `cw preview-request on a ${sessionMb} session / read+parse+stringify+hash`,
  session.aMs / session.bMs,
  2.0,
  session,
);
figure(`peak RSS of that run / the one-liner's`, session.aRssMb / session.bRssMb, 1.3, session);
for (const size of [small, middle, large])
  figure(`previewRequest / AI SDK generateText, ${mb(size.body_bytes)}`, size.cw_ms / size.sdk_ms, 0.2, size);
for (const size of [small, middle, large])
  figure(`cold previewRequest / AI SDK generateText, ${mb(size.body_bytes)}`, size.cw_cold_ms / size.sdk_ms, 0.2, size);

const reader = spawnSync(process.execPath, [join(root, 'bench', 'sse-reader-bench.mjs')], { encoding: 'utf8' });
const readerRatio = Number(/ratio one\/many:\s+([0-9.]+)/.exec(reader.stdout)?.[1]);
if (reader.status !== 0 || !Number.isFinite(readerRatio)) throw new Error(`SSE reader bench failed: ${reader.stderr}`);
figure('reply reader, one 20 MB SSE event / 1 KB events', readerRatio, 2.0, { output: reader.stdout.trim() });

rmSync(scratch, { recursive: true, force: true });
const machine = {
  node: process.version,
  cpus: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
  memory_gb: Number((totalmem() / 2 ** 30).toFixed(1)),
  date: new Date().toISOString(),
};
writeFileSync(join(root, 'bench', 'results.json'), `${JSON.stringify({ machine, figures }, null, 2)}\n`);

const rows = figures.map((entry) => [
  entry.figure,
  `${entry.ratio.toFixed(2)}x`,
  `<= ${entry.target.toFixed(1)}x`,
  entry.met ? 'met' : 'MISSED',
]);
const header = ['figure', 'ratio', 'target', ''];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
const line = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
console.log(`\n${machine.node}, ${machine.cpus}, ${machine.memory_gb} GB, ${machine.date}`);
console.log(line(header));
console.log(line(widths.map((width) => '-'.repeat(width))));
for (const row of rows) console.log(line(row));
console.log('\nraw figures: bench/results.json');
