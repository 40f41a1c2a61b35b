import { type StdioOptions, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { commandBinding } from './spawn-bound-to-cw.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** Spawns `touch <file>` behind the binding's prelude; resolves with its exit code once it ends. */
async function boundTouch(
  letGo: (channel: Duplex) => Promise<unknown>,
): Promise<{ code: number | null; ran: boolean }> {
  const folder = await mkdtemp(join(tmpdir(), 'cw-bound-'));
  folders.push(folder);
  const file = join(folder, 'ran');
  const binding = commandBinding();
  const argv = binding.argv(['/bin/sh', '-c', `touch '${file}'`], true);
  const stdio: StdioOptions = ['ignore', 'ignore', 'ignore'];
  while (stdio.length < binding.channelFd) stdio.push('ignore');
  stdio.push('pipe');
  const child = spawn(argv[0] as string, argv.slice(1), { stdio });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await letGo((child.stdio as readonly unknown[])[binding.channelFd] as Duplex);
  const code = await exited;
  return { code, ran: existsSync(file) };
}

describe('commandBinding', () => {
  it('runs the command once it is let go', async () => {
    const outcome = await boundTouch((channel) => commandBinding().start(channel, new AbortController().signal));
    expect(outcome).toEqual({ code: 0, ran: true });
  });

  it('runs nothing when cw is gone before the go (the channel closes)', async () => {
    const outcome = await boundTouch(async (channel) => channel.destroy());
    // Its report meets a closed channel (SIGPIPE) or its wait meets end-of-file (125): either way it stops.
    expect(outcome.ran).toBe(false);
    expect(outcome.code).not.toBe(0);
  });

  it('runs nothing when the signal aborted while the command came up', async () => {
    const controller = new AbortController();
    controller.abort();
    let started: boolean | undefined;
    const outcome = await boundTouch(async (channel) => {
      started = await commandBinding().start(channel, controller.signal);
    });
    expect(started).toBe(false);
    expect(outcome).toEqual({ code: 125, ran: false });
  });
});
