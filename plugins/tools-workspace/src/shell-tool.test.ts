import { readdir, readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { effectiveTimeoutMs, shellTool } from './shell-tool.js';
import type { ToolContext } from './tool-types.js';
import { TEST_LIMITS, useTempWorkspace } from './workspace-fixture.js';

const workspace = useTempWorkspace();

/**
 * Whether any live process is left in the group. `process.kill(-pgid, 0)` throws once the group is empty;
 * where PID 1 does not reap orphans (some containers), killed orphans linger as zombies, which are dead
 * processes, so on Linux the group's members are read from /proc and zombies are not counted.
 */
async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid pgrp ...: the command name may hold spaces, so read after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}

async function waitForGroupGone(pgid: number): Promise<boolean> {
  for (let i = 0; i < 20; i++) {
    if (!(await groupAlive(pgid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

const pgidOf = (content: string): number => Number(content.split('\n')[0]);

describe('shell', () => {
  const saved = process.env['CW_TOOLS_TEST_FOO'];
  afterEach(() => {
    if (saved === undefined) delete process.env['CW_TOOLS_TEST_FOO'];
    else process.env['CW_TOOLS_TEST_FOO'] = saved;
  });

  it('returns the output and exit code 0 as ok', async () => {
    const ws = workspace();
    expect(await ws.run(shellTool, { command: 'echo hello' })).toEqual({ status: 'ok', content: 'hello\nexit code 0' });
    expect(await ws.run(shellTool, { command: 'true' })).toEqual({ status: 'ok', content: 'exit code 0' });
  });

  it('marks a non-zero exit as an error and keeps stdout and stderr', async () => {
    const ws = workspace();
    const outcome = await ws.run(shellTool, { command: 'echo out; echo err >&2; exit 3' });
    expect(outcome.status).toBe('error');
    expect(outcome.content).toContain('out\n');
    expect(outcome.content).toContain('err\n');
    expect(outcome.content.endsWith('exit code 3')).toBe(true);
  });

  it('reports death by a signal', async () => {
    const ws = workspace();
    expect(await ws.run(shellTool, { command: 'kill -TERM $$' })).toEqual({
      status: 'error',
      content: 'killed by signal SIGTERM',
    });
  });

  it('runs in the workspace with stdin at /dev/null', async () => {
    const ws = workspace();
    expect((await ws.run(shellTool, { command: 'pwd' })).content).toBe(`${ws.root}\nexit code 0`);
    expect(await ws.run(shellTool, { command: 'cat' })).toEqual({ status: 'ok', content: 'exit code 0' });
  });

  it('passes exactly the context environment, nothing from the process', async () => {
    const ws = workspace();
    process.env['CW_TOOLS_TEST_FOO'] = 'leaked';
    const outcome = await ws.run(
      shellTool,
      { command: 'echo "[$CW_TOOLS_TEST_FOO][$BAR]"; env | sort' },
      { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', BAR: 'bar' } },
    );
    const lines = outcome.content.split('\n');
    expect(lines[0]).toBe('[][bar]');
    const names = lines.slice(1, -1).map((line) => line.split('=')[0]);
    // The shell may add its own bookkeeping variables (PWD, SHLVL, _), nothing else.
    expect(names.filter((name) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(name ?? ''))).toEqual(['BAR', 'PATH']);
  });

  it('kills the whole process group on timeout', async () => {
    const ws = workspace();
    const started = Date.now();
    const outcome = await ws.run(
      shellTool,
      { command: 'echo $$; sleep 30 & sleep 30' },
      { limits: { commandTimeoutMs: 300 } },
    );
    expect(Date.now() - started).toBeLessThan(1500);
    expect(outcome.status).toBe('error');
    expect(outcome.content.endsWith('killed after 0.3 s (timeout)')).toBe(true);
    expect(await waitForGroupGone(pgidOf(outcome.content))).toBe(true);
  });

  it('does not wait for a background child holding the output, and leaves none behind', async () => {
    const ws = workspace();
    const started = Date.now();
    const outcome = await ws.run(shellTool, { command: 'echo $$; sleep 30 & echo started' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(outcome.status).toBe('ok');
    expect(outcome.content).toMatch(/^\d+\nstarted\nexit code 0$/);
    expect(await waitForGroupGone(pgidOf(outcome.content))).toBe(true);
  });

  it('kills the whole group when the signal aborts', async () => {
    const ws = workspace();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const outcome = await ws.run(shellTool, { command: 'echo $$; sleep 30 & sleep 30' }, { signal: controller.signal });
    expect(outcome.status).toBe('error');
    expect(outcome.content.endsWith('killed: the call was cancelled')).toBe(true);
    expect(await waitForGroupGone(pgidOf(outcome.content))).toBe(true);
  });

  it('does not start when the signal is already aborted', async () => {
    const ws = workspace();
    const controller = new AbortController();
    controller.abort();
    expect(await ws.run(shellTool, { command: 'touch ran' }, { signal: controller.signal })).toEqual({
      status: 'error',
      content: 'cancelled before the command started',
    });
    expect(await readdir(ws.root)).toEqual([]);
  });

  it('caps the output, keeping its head and its tail', async () => {
    const ws = workspace();
    const outcome = await ws.run(shellTool, { command: 'seq 1 20000' }, { limits: { outputBytes: 200 } });
    expect(outcome.status).toBe('ok');
    expect(outcome.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(outcome.content).toMatch(/\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n/);
    expect(outcome.content.endsWith('19999\n20000\nexit code 0')).toBe(true);
    expect(Buffer.byteLength(outcome.content)).toBeLessThan(300);
    const byLines = await ws.run(shellTool, { command: 'seq 1 100' }, { limits: { outputLines: 4 } });
    expect(byLines.content).toBe('1\n2\n[... 281 bytes omitted ...]\n99\n100\nexit code 0');
  });

  it('bounds the timeout: the argument, else the limits, never above 600 s', async () => {
    expect(effectiveTimeoutMs(5, TEST_LIMITS)).toBe(5000);
    expect(effectiveTimeoutMs(undefined, { ...TEST_LIMITS, commandTimeoutMs: 1234 })).toBe(1234);
    expect(effectiveTimeoutMs(undefined, { ...TEST_LIMITS, commandTimeoutMs: 3_600_000 })).toBe(600_000);
    const ws = workspace();
    expect((await ws.run(shellTool, { command: 'true', timeout_seconds: 601 })).status).toBe('error');
    expect((await ws.run(shellTool, { command: 'true', timeout_seconds: '5' })).status).toBe('error');
  });

  it('refuses empty and non-string commands', async () => {
    const ws = workspace();
    expect(await ws.run(shellTool, { command: '  ' })).toEqual({ status: 'error', content: 'command is empty' });
    expect(await ws.run(shellTool, { command: ['ls'] })).toEqual({
      status: 'error',
      content: 'argument command must be a string',
    });
  });

  it('is not read-only, exposes its command for approval, and summarizes the first 60 characters', () => {
    const command = `npm test -- ${'x'.repeat(100)}`;
    expect(shellTool.readOnly).toBe(false);
    expect(shellTool.commandOf?.({ command })).toBe(command);
    expect(shellTool.commandOf?.({ command: 3 })).toBeNull();
    expect(shellTool.summarize?.({ command })).toBe(command.slice(0, 60));
    expect(shellTool.summarize?.({ command: 'echo a\necho b' })).toBe('echo a echo b');
  });
});

describe('shell inside a sandbox', () => {
  // Stands in for bubblewrap: whatever the command, it "fails inside" the way a refused write does.
  const refusing = (released: string[]): NonNullable<ToolContext['sandbox']> =>
    ({
      kind: 'bubblewrap',
      network: 'off',
      hidden: [],
      readOnly: [],
      wrap: async (_argv: readonly string[], options: { env: Readonly<Record<string, string>> }) => ({
        file: '/bin/sh',
        args: ['-c', 'echo "cannot create x: Read-only file system" >&2; exit 2'],
        env: { ...options.env },
        stdio: [],
        attach: () => {},
        release: async () => {
          released.push('temp');
        },
      }),
      reason: () => '[sandbox bubblewrap: refused]',
      close: async () => {},
    }) as unknown as NonNullable<ToolContext['sandbox']>;

  it('runs the command through the sandbox, adds its reason to a failure, and releases its temp folder', async () => {
    const ws = workspace();
    const released: string[] = [];
    const result = await ws.run(shellTool, { command: 'echo hi > out.txt' }, { sandbox: refusing(released) });
    expect(result.status).toBe('error');
    expect(result.content).toContain('Read-only file system');
    expect(result.content.trimEnd().endsWith('[sandbox bubblewrap: refused]')).toBe(true);
    expect(released).toEqual(['temp']);
  });

  it('runs it once outside only when the person agrees, and says so', async () => {
    const ws = workspace();
    const reasons: string[] = [];
    const agreed = await ws.run(
      shellTool,
      { command: 'echo outside' },
      {
        sandbox: refusing([]),
        offerUnsandboxedRun: async (reason) => {
          reasons.push(reason);
          return true;
        },
      },
    );
    expect(agreed.status).toBe('ok');
    expect(agreed.content).toMatch(/^\[run again outside the sandbox, once, as the user allowed\]\noutside\n/);
    expect(reasons).toEqual(['[sandbox bubblewrap: refused]']);
    const declined = await ws.run(
      shellTool,
      { command: 'echo outside' },
      { sandbox: refusing([]), offerUnsandboxedRun: async () => false },
    );
    expect(declined.status).toBe('error');
    expect(declined.content).not.toContain('outside\n');
  });
});

describe('shell and a Ctrl-C while the sandbox is being prepared', () => {
  it('starts nothing when the signal lands during the sandbox wrap', async () => {
    const ws = workspace();
    const controller = new AbortController();
    // A sandbox that runs what it is given, and takes the Ctrl-C while it prepares.
    const passing = {
      kind: 'bubblewrap',
      network: 'off',
      hidden: [],
      readOnly: [],
      wrap: async (argv: readonly string[], options: { env: Readonly<Record<string, string>> }) => {
        controller.abort();
        return { file: argv[0], args: argv.slice(1), env: { ...options.env }, release: async () => {} };
      },
      reason: () => '',
      close: async () => {},
    } as unknown as NonNullable<ToolContext['sandbox']>;
    const outcome = await ws.run(
      shellTool,
      { command: 'echo ran > ran.txt' },
      { sandbox: passing, signal: controller.signal },
    );
    expect(outcome.status).toBe('error');
    expect(outcome.content).toContain('cancelled');
    await expect(readFile(`${ws.root}/ran.txt`, 'utf8')).rejects.toThrow();
  });
});
