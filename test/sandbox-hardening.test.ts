// What the sandbox holds against a command that tries to leave it by another door than the file
// system (docs/security.md, "Root, host sockets and limits"): the BUILT CLI runs `cw send --approval
// workspace` against a scripted model on 127.0.0.1 whose shell calls try each door, with real
// bubblewrap. Linux with bubblewrap on PATH; without it they are skipped with one line
// naming the package, and fail under CI (test/support/require-bubblewrap.ts).
import { createServer as createHttpServer } from 'node:http';
import { type Server, createServer } from 'node:net';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { storedToolResults } from './support/stored-tool-results.js';
import { needBubblewrap } from './support/require-bubblewrap.js';
import { type ScriptedCall, useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_HARDENING_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
const SSH_KEY = 'FAKE-SSH-PRIVATE-KEY-77c2';

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

const shell = (id: string, command: string, timeoutSeconds = 20): ScriptedCall => ({
  id,
  name: 'shell',
  arguments: JSON.stringify({ command, timeout_seconds: timeoutSeconds }),
});

/** A Unix socket on this machine, outside the workspace, that counts who connects. */
async function unixListener(path: string): Promise<{ connections: () => number }> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count += 1;
    socket.end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { connections: () => count };
}

/** Runs one scripted turn of shell calls under `--approval workspace` and returns their results. */
async function runCalls(
  calls: ScriptedCall[],
  options: { ws: string; sandbox?: Record<string, unknown>; env?: Record<string, string> },
): Promise<Map<string, { status: string; content: string }>> {
  const model = await models.model('chat-completions', { reply: { calls } }, { reply: { text: 'done' } });
  const home = await models.home(model, {
    workspace: options.ws,
    approval: 'workspace',
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
  });
  const run = await runCwChild(['send', '--prompt', 'try'], models.envFor(home, options.env));
  expect(run.code, run.stderr).toBe(0);
  expect(model.problems).toEqual([]);
  expect(model.requests).toHaveLength(2);
  return storedToolResults(home);
}

describe('the sandbox keeps the session sockets out of reach', () => {
  it('SSH_AUTH_SOCK, TMUX and the rest are gone, and ssh-add, tmux -S and a direct connect reach no socket, while the proxy still works', async (context) => {
    needBubblewrap(context);
    const base = await models.folder('cw-hardening-');
    const ws = join(base, 'ws');
    const runtime = join(base, 'runtime');
    await mkdir(ws);
    await mkdir(join(runtime, 'tmux-0'), { recursive: true });
    const agentPath = join(runtime, 'agent.sock');
    const tmuxPath = join(runtime, 'tmux-0', 'default');
    // A daemon's socket outside any hidden folder, as docker's is: only the seccomp filter stands in the way.
    const daemonPath = join(base, 'daemon.sock');
    const daemon = await unixListener(daemonPath);
    const agent = await unixListener(agentPath);
    const tmux = await unixListener(tmuxPath);
    const web = createHttpServer((_request, response) => response.end('HELLO-THROUGH-PROXY'));
    servers.push(web);
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const port = (web.address() as { port: number }).port;
    const node = (script: string): string => `node -e "${script}"`;

    const results = await runCalls(
      [
        shell(
          'env',
          'echo "ssh=[$SSH_AUTH_SOCK] tmux=[$TMUX] pane=[$TMUX_PANE] display=[$DISPLAY] dbus=[$DBUS_SESSION_BUS_ADDRESS] runtime=[$XDG_RUNTIME_DIR]"',
        ),
        // The attack's own shape: the variables first, then the paths, in case a command knows them.
        shell('tmux_env', `tmux -S "\${TMUX%%,*}" send-keys 'touch /tmp/pwned' Enter`),
        shell('tmux_path', `tmux -S "${tmuxPath}" send-keys 'touch /tmp/pwned' Enter`),
        shell('ssh_env', 'ssh-add -L'),
        shell('ssh_path', `SSH_AUTH_SOCK="${agentPath}" ssh-add -L`),
        shell(
          'connect',
          node(
            `require('node:net').connect('${agentPath}').on('connect', () => { console.log('CONNECTED'); process.exit(0); }).on('error', (e) => { console.log(e.syscall, e.code); process.exit(1); })`,
          ),
        ),
        shell(
          'daemon',
          node(
            `require('node:net').connect('${daemonPath}').on('connect', () => { console.log('CONNECTED'); process.exit(0); }).on('error', (e) => { console.log(e.syscall, e.code); process.exit(1); })`,
          ),
        ),
        shell('runtime', `ls -A "${runtime}"; echo listed`),
        shell(
          'proxied',
          node(
            `const p = new URL(process.env.http_proxy); require('node:http').get({ host: p.hostname, port: p.port, path: 'http://127.0.0.1:${port}/' }, (r) => { r.on('data', (d) => process.stdout.write(d)); })`,
          ),
        ),
      ],
      {
        ws,
        // The allowlist runs the bridge too: it must work while no Unix socket can be made.
        sandbox: { network: ['127.0.0.1'] },
        env: {
          SSH_AUTH_SOCK: agentPath,
          TMUX: `${tmuxPath},4242,0`,
          TMUX_PANE: '%0',
          DISPLAY: ':0',
          DBUS_SESSION_BUS_ADDRESS: `unix:path=${agentPath}`,
          XDG_RUNTIME_DIR: runtime,
        },
      },
    );

    expect(results.get('env')?.content).toContain('ssh=[] tmux=[] pane=[] display=[] dbus=[] runtime=[]');
    for (const id of ['tmux_env', 'tmux_path', 'ssh_env', 'ssh_path', 'connect', 'daemon'])
      expect(results.get(id)?.status, `${id}: ${results.get(id)?.content}`).toBe('error');
    expect(results.get('connect')?.content).toContain('EPERM');
    expect(results.get('connect')?.content).not.toContain('CONNECTED');
    expect(results.get('connect')?.content).toContain('a Unix socket was refused');
    // The runtime folder is hidden: its sockets are not even listed.
    expect(results.get('runtime')?.content).not.toContain('agent.sock');
    expect(results.get('runtime')?.content).toContain('listed');
    expect(results.get('daemon')?.content).toContain('connect EPERM');
    expect(daemon.connections()).toBe(0);
    expect(agent.connections()).toBe(0);
    expect(tmux.connections()).toBe(0);
    expect(results.get('proxied')?.status, results.get('proxied')?.content).toBe('ok');
    expect(results.get('proxied')?.content).toContain('HELLO-THROUGH-PROXY');
  });
});

describe('an MCP stdio server with "sandbox": true gets the same filter and bridge', () => {
  it('reaches no Unix socket and sees no SSH_AUTH_SOCK, while its allowlisted request goes through the proxy', async (context) => {
    needBubblewrap(context);
    const base = await models.folder('cw-hardening-');
    const ws = join(base, 'ws');
    const marks = join(base, 'marks');
    await mkdir(ws);
    await mkdir(marks);
    const daemonPath = join(base, 'daemon.sock');
    const daemon = await unixListener(daemonPath);
    const web = createHttpServer((_request, response) => response.end('MCP-THROUGH-PROXY'));
    servers.push(web);
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const port = (web.address() as { port: number }).port;
    const launcher = join(base, 'launch.mjs');
    await writeFile(
      launcher,
      [
        "import { writeFileSync } from 'node:fs';",
        "import { connect } from 'node:net';",
        "import { get } from 'node:http';",
        `const unix = await new Promise((resolve) => connect(${JSON.stringify(daemonPath)}).on('connect', () => resolve('connected')).on('error', (error) => resolve(error.code)));`,
        'const proxy = new URL(process.env.http_proxy);',
        `const web = await new Promise((resolve) => get({ host: proxy.hostname, port: proxy.port, path: 'http://127.0.0.1:${port}/' }, (response) => { let body = ''; response.on('data', (chunk) => { body += chunk; }); response.on('end', () => resolve(body)); }).on('error', (error) => resolve(error.code)));`,
        "writeFileSync(process.argv[2] + '/probe.json', JSON.stringify({ unix, web, agent: process.env.SSH_AUTH_SOCK ?? null }));",
        `await import(${JSON.stringify(join(process.cwd(), 'test', 'fixtures', 'mcp', 'fixture-server.mjs'))});`,
        '',
      ].join('\n'),
    );
    const model = await models.model('chat-completions');
    const home = await models.home(model, {
      workspace: ws,
      sandbox: { network: ['127.0.0.1'] },
      mcpServers: { boxed: { command: process.execPath, args: [launcher, marks], sandbox: true } },
    });
    const refresh = await runCwChild(['mcp', 'refresh'], models.envFor(home, { SSH_AUTH_SOCK: daemonPath }));
    expect(refresh.code, refresh.stderr + refresh.stdout).toBe(0);
    expect(JSON.parse(await readFile(join(marks, 'probe.json'), 'utf8'))).toEqual({
      unix: 'EPERM',
      web: 'MCP-THROUGH-PROXY',
      agent: null,
    });
    expect(daemon.connections()).toBe(0);
  });
});

describe('the sandbox holds when cw runs as root', () => {
  // Only root can show it: for another user, mount fails whether or not capabilities are dropped.
  it.skipIf(process.getuid?.() !== 0)(
    'mount -o remount,rw,bind / and umount of a hidden folder fail, and no capability is left',
    async (context) => {
      needBubblewrap(context);
      const base = await models.folder('cw-hardening-');
      const ws = join(base, 'ws');
      const userHome = join(base, 'home');
      await mkdir(ws);
      await mkdir(join(userHome, '.ssh'), { recursive: true });
      await writeFile(join(userHome, '.ssh', 'id_ed25519'), SSH_KEY);
      const outside = join(base, 'outside.txt');

      const results = await runCalls(
        [
          shell('remount', `mount -o remount,rw,bind / && echo REMOUNTED > "${outside}"`),
          shell('umount', 'umount "$HOME/.ssh" && cat "$HOME/.ssh/id_ed25519"'),
          shell('caps', 'grep CapEff /proc/self/status'),
        ],
        { ws, env: { HOME: userHome } },
      );

      expect(results.get('remount')?.status).toBe('error');
      expect(results.get('umount')?.status).toBe('error');
      await expect(stat(outside)).rejects.toThrow();
      expect(JSON.stringify([...results.values()])).not.toContain(SSH_KEY);
      expect(results.get('caps')?.content).toMatch(/CapEff:\s+0{16}/);
    },
  );
});

describe('the sandbox bounds processes and file size', () => {
  it('a fork bomb stops at sandbox.limits.processes by itself, and a file over file_size_mb is refused', async (context) => {
    needBubblewrap(context);
    const base = await models.folder('cw-hardening-');
    const ws = join(base, 'ws');
    await mkdir(ws);

    const results = await runCalls(
      [
        // Bounded so that it ends on the old code too: 300 sleepers, each gone after 5 s.
        shell('bomb', 'i=0; while [ $i -lt 300 ]; do sleep 5 & i=$((i+1)); done; echo "started $i"'),
        shell('big', 'head -c 3145728 /dev/zero > big.bin; echo "exit $?"'),
        shell('small', 'head -c 1000 /dev/zero > small.bin && echo small-ok'),
      ],
      { ws, sandbox: { limits: { processes: 64, file_size_mb: 1 } } },
    );

    const bomb = results.get('bomb');
    // Soft, so that the file size is judged too when the bomb is not bounded.
    expect.soft(bomb?.content).not.toContain('started 300');
    expect.soft(bomb?.content).toMatch(/fork/i);
    expect.soft(bomb?.content).not.toContain('timeout');
    expect.soft(bomb?.content).toContain('a new process was refused (sandbox.limits.processes)');
    expect(results.get('big')?.content).not.toContain('exit 0');
    expect((await stat(join(ws, 'big.bin'))).size).toBeLessThanOrEqual(1024 * 1024);
    expect(results.get('small')?.content).toContain('small-ok');
  });
});
