// `cw send` has an entry that does not load oclif (cli/src/entry/fast-send.ts). It must be invisible: for
// every command line, stdout, stderr, the exit code, the requests sent and the session saved are those
// of the oclif command (CW_NO_FAST_PATH=1). Each case runs the built CLI both ways, each on its own
// fresh home with the same config, against a local model that answers both alike; the oclif-free way
// runs with a hook that reports any module under @oclif/ it resolves, so the test also knows which
// way each line went.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cw-fixture.js';
import { useFaultHomes } from './support/fault-home.js';
import { data, type FaultHandler, json, sse } from './support/fault-server.js';
import { type CwExit, sessionMessages, spawnCw } from './support/spawn-cw.js';

const HOOK = join(REPO_ROOT, 'test', 'fixtures', 'report-oclif-imports.mjs');
const OCLIF_LOADED = 'oclif-loaded: ';
const KEY_ENV = 'CW_FAST_SEND_TEST_KEY';

const fault = useFaultHomes(KEY_ENV);

// What the current run's requests get, in order; reset for every run, so a reply one run did not use
// can never answer the next. Every request the server receives is answered from here.
let pending: FaultHandler[] = [];
const dispatch: FaultHandler = (request, response) =>
  (pending.shift() ?? ((_request, reply) => void reply.writeHead(500).end('no reply scripted')))(request, response);
beforeAll(() => {
  fault.server.next(...Array.from({ length: 1000 }, () => dispatch));
});

/** How the model answers a case's requests. */
type Reply = 'text' | 'blocking' | 'tool-call' | 'fails' | 'none';

const streamedText = (text: string): FaultHandler =>
  sse(
    data({ choices: [{ delta: { role: 'assistant', content: text } }] }),
    data({ choices: [{ delta: {}, finish_reason: 'stop' }] }),
    data({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 2 } }),
    'data: [DONE]\n\n',
  );

/** The handlers one run of a case needs, in order. */
function handlersFor(reply: Reply): FaultHandler[] {
  switch (reply) {
    case 'text':
      return [streamedText('the reply')];
    case 'blocking':
      return [
        json(200, {
          choices: [{ index: 0, message: { role: 'assistant', content: 'whole reply' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 7, completion_tokens: 2 },
        }),
      ];
    case 'tool-call':
      return [
        sse(
          data({
            choices: [
              {
                delta: {
                  tool_calls: [
                    {
                      index: 0,
                      id: 'call_1',
                      type: 'function',
                      function: { name: 'list_directory', arguments: '{"path":"."}' },
                    },
                  ],
                },
              },
            ],
          }),
          data({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] }),
          'data: [DONE]\n\n',
        ),
        streamedText('listed it'),
      ];
    case 'fails':
      return [json(500, { error: { message: 'the model is down' } })];
    case 'none':
      return [];
  }
}

/** Runs cw to the end with `stdin` as its whole input. */
async function run(args: readonly string[], env: Record<string, string>, stdin: string, cwd: string): Promise<CwExit> {
  const cw = spawnCw(args, env, { cwd });
  cw.child.stdin?.end(stdin);
  return cw.done;
}

interface Way {
  readonly exit: CwExit;
  readonly bodies: readonly string[];
  readonly session: readonly unknown[] | null;
}

/** One way of running a line: a fresh home with `config`, its requests and its saved session. */
async function oneWay(
  args: readonly string[],
  reply: Reply,
  config: Record<string, unknown>,
  stdin: string,
  extraEnv: Record<string, string>,
  workspace: string,
): Promise<Way> {
  const home = await fault.home('chat-completions', config);
  const before = fault.server.received.length;
  pending = handlersFor(reply);
  const ran = await run(args, fault.envFor(home, extraEnv), stdin, workspace);
  // How long a tool ran is the one thing two runs may not share.
  const timeless = (text: string): string =>
    text.replace(/\b\d+ ms\)/g, 'N ms)').replace(/"(duration_ms|elapsed_ms)":\d+/g, '"$1":N');
  const exit = { ...ran, stdout: timeless(ran.stdout), stderr: timeless(ran.stderr) };
  const bodies = fault.server.received.slice(before).map((request) => request.body);
  let session: unknown[] | null = null;
  try {
    session = await sessionMessages(home, args.includes('-s') ? (args[args.indexOf('-s') + 1] ?? '') : 'default');
  } catch {
    session = null;
  }
  return { exit, bodies, session };
}

/** The same line run the oclif-free way (reporting whether oclif loaded) and the oclif way. */
async function bothWays(
  args: readonly string[],
  reply: Reply,
  config: Record<string, unknown> = {},
  stdin = '',
): Promise<{ fast: Way; oclif: Way; loadedOclif: boolean }> {
  // One workspace for both ways (each has its own home), so session ids and listings match.
  const workspace = await fault.folder('cw-fast-send-ws-');
  const hooked = await oneWay(args, reply, config, stdin, { NODE_OPTIONS: `--import=${HOOK}` }, workspace);
  const lines = hooked.exit.stderr.split(/(?<=\n)/);
  const stderr = lines.filter((line) => !line.startsWith(OCLIF_LOADED)).join('');
  const fast = { ...hooked, exit: { ...hooked.exit, stderr } };
  const oclif = await oneWay(args, reply, config, stdin, { CW_NO_FAST_PATH: '1' }, workspace);
  return { fast, oclif, loadedOclif: lines.some((line) => line.startsWith(OCLIF_LOADED)) };
}

/** Lines the oclif-free entry runs: [name, args, reply, config, stdin]. */
const FAST: readonly [string, readonly string[], Reply, Record<string, unknown>?, string?][] = [
  ['a streamed text reply', ['send', '--prompt', 'hi'], 'text'],
  ['--json', ['send', '--json', '--prompt', 'hi'], 'text'],
  ['--output-format json', ['send', '--output-format', 'json', '--prompt', 'hi'], 'text'],
  ['--output-format stream-json', ['send', '--output-format', 'stream-json', '--prompt', 'hi'], 'text'],
  ['--output-format text', ['send', '--output-format', 'text', '--prompt', 'hi'], 'text'],
  ['--blocking', ['send', '--blocking', '--json', '--prompt', 'hi'], 'blocking'],
  ['a new session', ['send', '-n', '--prompt', 'hi'], 'text'],
  ['a named session', ['send', '-s', 'work', '--prompt', 'hi'], 'text'],
  ['--continue with no session yet', ['send', '--continue', '--prompt', 'hi'], 'text'],
  ['a model', ['send', '-m', 'other-model', '--prompt', 'hi'], 'text'],
  ['--reasoning', ['send', '--reasoning', 'high', '--json', '--prompt', 'hi'], 'text'],
  ['--no-tool-runs and a tool call', ['send', '--no-tool-runs', '--prompt', 'hi'], 'tool-call'],
  ['the old --no-tools', ['send', '--no-tools', '--json', '--prompt', 'hi'], 'tool-call'],
  [
    'a tool run under read-only, as stream-json',
    ['send', '--approval', 'read-only', '--output-format', 'stream-json', '--prompt', 'list'],
    'tool-call',
  ],
  [
    '--max-steps 1 with a tool call',
    ['send', '--approval', 'read-only', '--max-steps', '1', '--prompt', 'x'],
    'tool-call',
  ],
  ['--sandbox off', ['send', '--sandbox', 'off', '--prompt', 'hi'], 'text'],
  ['the model fails', ['send', '--max-retries', '0', '--prompt', 'hi'], 'fails'],
  ['the model fails, as JSON', ['send', '--max-retries', '0', '--json', '--prompt', 'hi'], 'fails'],
  [
    'the model fails, as stream-json',
    ['send', '--max-retries', '0', '--output-format', 'stream-json', '--prompt', 'hi'],
    'fails',
  ],
  ['an unknown route', ['send', '-r', 'no-such-route', '--prompt', 'hi'], 'none'],
  ['an unknown route, as JSON', ['send', '--json', '--route', 'no-such-route', '--prompt', 'hi'], 'none'],
  ['--max-retries out of range', ['send', '--max-retries', '99', '--prompt', 'hi'], 'none'],
  ['--max-steps not a number', ['send', '--json', '--max-steps', 'many', '--prompt', 'hi'], 'none'],
  ['an approval that does not exist', ['send', '--approval', 'always', '--prompt', 'hi'], 'none'],
  ['--json with another format', ['send', '--json', '--output-format', 'stream-json', '--prompt', 'hi'], 'none'],
  ['two session choices', ['send', '-s', 'a', '-n', '--prompt', 'hi'], 'none'],
  ['a bad session name', ['send', '--json', '--session', 'no/such', '--prompt', 'hi'], 'none'],
  ['the prompt from stdin', ['send', '--prompt', '-'], 'text', {}, 'from stdin\n'],
  ['no --prompt, the prompt on stdin', ['send'], 'text', {}, 'piped prompt'],
  ['no --prompt and nothing to continue', ['send'], 'none'],
  ['an empty --prompt', ['send', '--prompt', ''], 'none'],
  ['--prompt=', ['send', '--prompt=hi', 'there'], 'text'],
  ['--help inside the prompt', ['send', '--prompt', 'what', 'does', '--help', 'do'], 'text'],
  ['a flag after the prompt', ['send', '--prompt', 'hi', '-r', 'zai'], 'text'],
  ['a fenced prompt', ['send', '--', '--prompt', '--help', '-h'], 'text'],
  ['a config value refused', ['send', '--json', '--prompt', 'hi'], 'none', { reasoning: 'extreme' }],
];

/** Lines only oclif can answer exactly, so the oclif-free entry must leave them to it. */
const OCLIF: readonly [string, readonly string[]][] = [
  ['--help', ['send', '--help']],
  ['--help before --prompt', ['send', '--json', '--help', '--prompt', 'hi']],
  ['-h', ['send', '-h', '--prompt', 'hi']],
  ['an unknown flag', ['send', '--jsn', '--prompt', 'hi']],
  ['a bare word', ['send', 'hello', 'world']],
  ['--flag=value', ['send', '--route=zai', '--prompt', 'hi']],
  ['--output-format=json', ['send', '--output-format=json', '--prompt', 'hi']],
  ['an attached short value', ['send', '-rzai', '--prompt', 'hi']],
  ['a repeated flag', ['send', '--json', '--json', '--prompt', 'hi']],
  ['an output format that does not exist', ['send', '--output-format', 'xml', '--prompt', 'hi']],
  ['a sandbox mode that does not exist', ['send', '--sandbox', 'maybe', '--prompt', 'hi']],
  ['a reasoning level that does not exist', ['send', '--reasoning', 'extreme', '--prompt', 'hi']],
  ['a flag with no value', ['send', '-r', '--prompt', 'hi']],
  ['a value that starts with -', ['send', '-m', '-x', '--prompt', 'hi']],
  ['a stray --', ['send', '--', '--json', '--prompt', 'hi']],
];

describe('cw send without oclif', () => {
  it.each(FAST)('does what the oclif command does: %s', async (_name, args, reply, config = {}, stdin = '') => {
    const { fast, oclif, loadedOclif } = await bothWays(args, reply, config, stdin);
    expect(fast.exit).toEqual(oclif.exit);
    expect(fast.bodies).toEqual(oclif.bodies);
    expect(fast.session).toEqual(oclif.session);
    expect(loadedOclif).toBe(false);
  });

  it.each(OCLIF)('leaves the line to oclif: %s', async (_name, args) => {
    const { fast, oclif, loadedOclif } = await bothWays(args, 'none');
    expect(loadedOclif).toBe(true);
    expect(fast.exit).toEqual(oclif.exit);
  });

  it('the matrix covers what it means to: replies, tool runs, usage errors, failures as JSON', async () => {
    const text = await bothWays(['send', '--prompt', 'hi'], 'text');
    expect(text.fast.exit).toMatchObject({ code: 0, stdout: 'the reply\n' });
    expect(text.fast.bodies).toHaveLength(1);
    const tools = await bothWays(['send', '--approval', 'read-only', '--json', '--prompt', 'list'], 'tool-call');
    expect(tools.fast.exit.code).toBe(0);
    expect(tools.fast.bodies).toHaveLength(2);
    expect(tools.fast.exit.stderr).toContain('list_directory');
    const usage = await bothWays(['send', '--max-retries', '99', '--prompt', 'hi'], 'none');
    expect(usage.fast.exit.code).toBe(2);
    expect(usage.fast.bodies).toHaveLength(0);
    const failed = await bothWays(['send', '--max-retries', '0', '--json', '--prompt', 'hi'], 'fails');
    expect(failed.fast.exit.code).not.toBe(0);
    expect(JSON.parse(failed.fast.exit.stdout)).toHaveProperty('error');
  });
});
