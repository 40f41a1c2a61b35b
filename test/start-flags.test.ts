// `cw` started the usual way, headless, on the BUILT CLI (run `npm run build` first) against a
// scripted model on 127.0.0.1: `cw -p` is one turn exactly as `cw send` in every output format, on
// the fast path; `cw "…"` off a terminal is `cw -p "…"`; `-c` and `-r` pick the session; `-h` and
// `-v` are help and the version line; bad start lines are one line, exit 2, nothing saved.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CW_BIN, FAKE_KEY, REPO_ROOT } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { useScriptedModels } from './support/scripted-model.js';
import { type CwExit, cwEnv, runCwChild, sessionMessages } from './support/spawn-cw.js';

const models = useScriptedModels('CW_START_KEY', FAKE_KEY);
// Prompts are compared as typed: no turn-context block.
const CONFIG = { approval: 'never', context: { turn_context: false } };
const HOOK = join(REPO_ROOT, 'test', 'fixtures', 'report-oclif-imports.mjs');

/**
 * Runs the built cw with `stdin` as its input: a real pipe holding `text` (a shell `|`, as
 * `printf … | cw` makes), or nothing (/dev/null) for null.
 */
function runWith(args: readonly string[], env: Record<string, string>, stdin: string | null): Promise<CwExit> {
  return new Promise((resolve, reject) => {
    const quoted = [process.execPath, CW_BIN, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
    const child =
      stdin === null
        ? spawn(process.execPath, [CW_BIN, ...args], {
            env: cwEnv(env),
            cwd: REPO_ROOT,
            stdio: ['ignore', 'pipe', 'pipe'],
          })
        : spawn('sh', ['-c', `cat | ${quoted}`], { env: cwEnv(env), cwd: REPO_ROOT, stdio: 'pipe' });
    if (stdin !== null) child.stdin?.end(stdin);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}

/** One fresh home on a model that answers `reply` once; its env. */
async function oneReply(
  reply = 'done',
): Promise<{ env: Record<string, string>; home: string; model: Awaited<ReturnType<typeof models.model>> }> {
  const model = await models.model('chat-completions', { reply: { text: reply } });
  const home = await models.home(model, CONFIG);
  return { env: models.envFor(home), home, model };
}

describe('cw -p is one turn exactly as cw send', () => {
  it.each([
    ['text', ['-p', 'say', 'hi'], ['send', '--prompt', 'say', 'hi']],
    ['--json', ['-p', '--json', 'say hi'], ['send', '--json', '--prompt', 'say hi']],
    [
      'stream-json',
      ['--print', '--output-format', 'stream-json', 'say hi'],
      ['send', '--output-format', 'stream-json', '--prompt', 'say hi'],
    ],
  ])('%s: the same request, output and session as cw send', async (_name, start, send) => {
    const viaStart = await oneReply();
    const viaSend = await oneReply();
    const started = await runWith(start, viaStart.env, null);
    const sent = await runWith(send, viaSend.env, null);
    expect(started.code, started.stderr).toBe(0);
    expect(sent.code, sent.stderr).toBe(0);
    const timeless = (text: string) =>
      text.replace(/"(duration_ms|elapsed_ms|session_id)":("[^"]*"|\d+)/g, '"$1":N').replace(/\b\d+ ms\b/g, 'N ms');
    expect(timeless(started.stdout)).toEqual(timeless(sent.stdout));
    expect(started.stdout).toContain('done');
    expect(started.stderr).toEqual(sent.stderr);
    expect(viaStart.model.requests.map((request) => request.canonicalSha256)).toEqual(
      viaSend.model.requests.map((request) => request.canonicalSha256),
    );
    expect(await sessionMessages(viaStart.home)).toEqual(await sessionMessages(viaSend.home));
  });

  it('reads the prompt from stdin when the line has none', async () => {
    const { env, home } = await oneReply();
    const run = await runWith(['-p'], env, 'piped prompt');
    expect(run.code, run.stderr).toBe(0);
    expect((await sessionMessages(home))[0]).toEqual({ role: 'user', content: 'piped prompt' });
  });

  it('takes the fast path: oclif is never loaded, and CW_NO_FAST_PATH still runs it through oclif', async () => {
    const { env } = await oneReply();
    const fast = await runWith(['-p', 'say hi'], { ...env, NODE_OPTIONS: `--import=${HOOK}` }, null);
    expect(fast.code, fast.stderr).toBe(0);
    expect(fast.stderr).not.toContain('oclif-loaded: ');
    const slow = await oneReply();
    const viaOclif = await runWith(
      ['-p', 'say hi'],
      { ...slow.env, NODE_OPTIONS: `--import=${HOOK}`, CW_NO_FAST_PATH: '1' },
      null,
    );
    expect(viaOclif.code, viaOclif.stderr).toBe(0);
    expect(viaOclif.stderr).toContain('oclif-loaded: ');
    expect(viaOclif.stdout).toEqual(fast.stdout);
  });

  it('-c continues the latest session and -r <name> resumes a named one', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { text: 'one' } },
      { reply: { text: 'two' } },
      { reply: { text: 'three' } },
      { reply: { text: 'four' } },
    );
    const home = await models.home(model, CONFIG);
    const env = models.envFor(home);
    expect((await runWith(['-p', 'first'], env, null)).code).toBe(0);
    expect((await runWith(['-p', '-c', 'second'], env, null)).code).toBe(0);
    expect((await runWith(['-p', '-s', 'other', 'elsewhere'], env, null)).code).toBe(0);
    const resumed = await runWith(['-r', 'default', '-p', 'third'], env, null);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await sessionMessages(home)).filter((message) => message['role'] === 'user')).toEqual([
      { role: 'user', content: 'first' },
      { role: 'user', content: 'second' },
      { role: 'user', content: 'third' },
    ]);
  });
});

describe('cw "…" off a terminal', () => {
  it('sends the prompt headless, as cw -p', async () => {
    const { env, home } = await oneReply('hello there');
    const run = await runWith(['say hi to me'], env, null);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('hello there');
    expect((await sessionMessages(home))[0]).toEqual({ role: 'user', content: 'say hi to me' });
  });
});

describe('cw -h and cw -v', () => {
  it('-h is cw --help, and -v is the version line', async () => {
    const help = await runCwChild(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('USAGE');
    expect(await runCwChild(['-h'], {})).toEqual(help);
    const version = await runCwChild(['--version'], {});
    expect(version.stdout).toMatch(/^@cw\/cli\/\S+ \S+ node-v\S+\n$/);
    expect(await runCwChild(['-v'], {})).toEqual(version);
  });
});

describe('bad start lines: one line, exit 2, nothing saved', () => {
  it.each([
    ['-c with no session', ['-c', '-p', 'hi'], /^cw: no session to continue in this workspace/],
    ['-r nosuch', ['-r', 'nosuch', '-p', 'hi'], /^cw: no session named nosuch in this workspace/],
    ['-p with no prompt and nothing on stdin', ['-p'], /^cw: cw -p needs a prompt/],
    ['an unknown flag', ['-x'], /^cw: Unknown flag `-x`/],
    ['-p -r with no name', ['-p', '-r'], /^cw: cw -p -r needs a session name/],
  ])('%s', async (_name, args, line) => {
    const { env, home, model } = await oneReply();
    const before = await homeBytes(home);
    const run = await runWith(args, env, null);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(line);
    expect(run.stderr.split('\n')).toHaveLength(2);
    expect(run.stdout).toBe('');
    expect(model.requests).toHaveLength(0);
    expect(await homeBytes(home)).toEqual(before);
  });

  it('a key typed as a flag is never printed', async () => {
    const run = await runCwChild(['--sk-live-0000000000000000000000000000abcd', 'hi'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^cw: Unknown flag \(not shown/);
    expect(run.stderr + run.stdout).not.toContain('sk-live');
  });
});
