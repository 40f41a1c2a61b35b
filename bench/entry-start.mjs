// How long a person or an editor waits for cw to be ready: `cw chat` until its prompt shows in a
// pseudo-terminal, and `cw acp` until it answers `initialize`. Each is timed against the same
// yardstick run the same way (`node -e 0` under the same terminal, or alone), alternating, medians
// compared (docs/performance.md, "Every entry").
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.env.CW_BENCH_ROOT ?? fileURLToPath(new URL('../', import.meta.url));
const cw = join(root, 'cli', 'bin', 'run.js');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const quote = (word) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * Starts `command` and resolves with the milliseconds until `ready(output)` holds (or until it exits,
 * when `ready` is null); the process group is then stopped. `input` is written once it starts.
 */
function timeUntil({ command, args, cwd, env, input, ready, timeoutMs = 20_000 }) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: 'pipe' });
    let output = '';
    let done = false;
    const finish = (error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      if (error) reject(error);
      else resolve(ms);
    };
    const timer = setTimeout(
      () => finish(new Error(`${args.join(' ')}: not ready in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    child.stdout.on('data', (chunk) => {
      output += chunk.toString('utf8');
      if (ready?.(output)) finish();
    });
    child.stderr.on('data', (chunk) => {
      output += chunk.toString('utf8');
    });
    child.on('exit', (code) => {
      if (ready === null && code === 0) finish();
      else if (!done) finish(new Error(`${args.join(' ')} exited ${code} before it was ready:\n${output}`));
    });
    if (input !== undefined) child.stdin.write(input);
  });
}

/** A and B alternate after one warm-up each; medians of `runs`, in milliseconds. */
async function pairedAsync(a, b, runs) {
  await a();
  await b();
  const samples = { a: [], b: [] };
  for (let run = 0; run < runs; run += 1) {
    samples.a.push(await a());
    samples.b.push(await b());
  }
  return { aMs: median(samples.a), bMs: median(samples.b) };
}

/** Runs `argv` in a pseudo-terminal through util-linux `script`, 120 columns wide. */
const inTerminal = (argv) => ({
  command: 'script',
  args: ['-qfec', `stty cols 120 rows 40; exec ${argv.map(quote).join(' ')}`, '/dev/null'],
});

/**
 * Time until `cw chat` shows its prompt and until `cw acp` answers `initialize`, each against `node -e 0`
 * started the same way. Returns { chat: { aMs, bMs }, acp: { aMs, bMs } }.
 */
export async function measureEntryStart({ runs = 10 } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'cw-bench-entry-'));
  const home = join(scratch, 'home');
  const workspace = join(scratch, 'workspace');
  mkdirSync(home);
  mkdirSync(workspace);
  const env = { CW_HOME: home, TERM: 'xterm-256color', NO_COLOR: '1' };
  try {
    const chat = await pairedAsync(
      () =>
        timeUntil({
          ...inTerminal([process.execPath, cw, 'chat']),
          cwd: workspace,
          env,
          ready: (out) => out.includes('› '),
        }),
      () => timeUntil({ ...inTerminal([process.execPath, '-e', '0']), cwd: workspace, env, ready: null }),
      runs,
    );
    const initialize = `${JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: 1, clientCapabilities: {} },
    })}\n`;
    const acp = await pairedAsync(
      () =>
        timeUntil({
          command: process.execPath,
          args: [cw, 'acp'],
          cwd: workspace,
          env,
          input: initialize,
          ready: (out) => out.includes('"id":0'),
        }),
      () => timeUntil({ command: process.execPath, args: ['-e', '0'], cwd: workspace, env, ready: null }),
      runs,
    );
    return { chat, acp };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await measureEntryStart({ runs: Number(process.env.CLI_RUNS ?? 10) });
  console.log(JSON.stringify(result, null, 2));
}
