// A stdio MCP transport for a server inside the sandbox. The SDK's StdioClientTransport spawns with
// exactly stdin, stdout and stderr; bubblewrap also needs the Unix-socket filter (and, under a network
// allowlist, the bridge's channel) on the spawn (docs/security.md, "Host sockets"), so this one takes
// what the sandbox's `wrap()` returned and spawns with it. It frames messages as the SDK's does.
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import type { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { WrappedCommand } from '../sandbox/command-sandbox.js';

const requireBuiltin = createRequire(import.meta.url);

/** Runs a wrapped stdio server: stdin and stdout carry the protocol, stderr is read through `stderr`. */
export class SandboxedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, readable before `start`, so no early line is lost. */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private readonly buffer: ReadBuffer;

  /** `framing` is the SDK's stdio framing, which the caller loads lazily (the SDK stays off the preview path). */
  constructor(
    private readonly wrapped: WrappedCommand,
    private readonly cwd: string | undefined,
    private readonly framing: { ReadBuffer: typeof ReadBuffer; serializeMessage: typeof serializeMessage },
  ) {
    this.buffer = new framing.ReadBuffer();
  }

  start(): Promise<void> {
    if (this.child !== undefined) throw new Error('the transport has started already');
    const { spawn } = requireBuiltin('node:child_process') as typeof import('node:child_process');
    return new Promise((resolve, reject) => {
      const child = spawn(this.wrapped.file, [...this.wrapped.args], {
        env: this.wrapped.env,
        stdio: ['pipe', 'pipe', 'pipe', ...this.wrapped.stdio],
        shell: false,
        ...(this.cwd === undefined ? {} : { cwd: this.cwd }),
      });
      this.wrapped.attach(child);
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin) return reject(new Error('Not connected'));
      if (stdin.write(this.framing.serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Closes stdin, then SIGTERM, then SIGKILL, two seconds apart, as the SDK's transport does. */
  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child !== undefined) {
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
      const wait = () => Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, 2000).unref())]);
      child.stdin?.end();
      await wait();
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        if (child.exitCode !== null || child.signalCode !== null) break;
        child.kill(signal);
        if (signal === 'SIGTERM') await wait();
      }
    }
    this.buffer.clear();
  }
}
