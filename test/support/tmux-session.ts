// A real pseudo-terminal for the interactive tests: tmux runs the built CLI in a pane of its own
// server, the test types keys and reads the screen. Each test file makes one `TmuxSession` per test
// and closes it in `afterEach` (docs/cli.md, "cw chat").
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CW_BIN } from './cw-fixture.js';
import { waitFor } from './spawn-cw.js';

/** Whether tmux is installed: the terminal tests skip without it. */
export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

/** How a pane is started. */
export interface TmuxStart {
  /** Environment on top of the test process's own. */
  readonly env: Record<string, string>;
  readonly cwd: string;
  /** Arguments after `cw`. */
  readonly args?: readonly string[];
  /** Keep colours on (NO_COLOR unset); `screen({ escapes: true })` then shows them. */
  readonly color?: boolean;
  readonly width?: number;
  readonly height?: number;
}

/** One tmux server with one pane named `chat`, running cw. */
export class TmuxSession {
  private constructor(private readonly socket: string) {}

  /** Starts `cw <args>` in a fresh pane (120×40 unless told) with its server's socket in `folder`. */
  static start(folder: string, options: TmuxStart): TmuxSession {
    const session = new TmuxSession(join(folder, 'socket'));
    const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, TERM: 'xterm-256color' };
    if (options.color === true) delete env['NO_COLOR'];
    else env['NO_COLOR'] = '1';
    const started = spawnSync(
      'tmux',
      [
        '-S',
        session.socket,
        'new-session',
        '-d',
        '-x',
        String(options.width ?? 120),
        '-y',
        String(options.height ?? 40),
        '-s',
        'chat',
        '-c',
        options.cwd,
        process.execPath,
        CW_BIN,
        ...(options.args ?? []),
      ],
      { env },
    );
    if (started.status !== 0) throw new Error(`tmux did not start: ${started.stderr.toString()}`);
    // The pane stays after cw leaves, so the test can tell that it left.
    session.tmux('set-option', '-t', 'chat', 'remain-on-exit', 'on');
    return session;
  }

  /** Runs one tmux command on this server. */
  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], { encoding: 'utf8' });
  }

  /** The process id of the pane's program (cw). */
  pid(): number {
    return Number(this.tmux('display-message', '-p', '-t', 'chat', '#{pane_pid}').trim());
  }

  /** The pane's text, scrollback included, wrapped lines joined; with `escapes`, colours kept. */
  screen(options: { readonly escapes?: boolean } = {}): string {
    return this.tmux(
      'capture-pane',
      '-p',
      '-J',
      ...(options.escapes === true ? ['-e'] : []),
      '-S',
      '-1000',
      '-t',
      'chat',
    );
  }

  /** Waits until `text` shows on the screen. */
  async waitForScreen(text: string, what = text, timeoutMs = 10_000): Promise<void> {
    await waitFor(() => this.screen().includes(text), timeoutMs, `${what} on the screen:\n${this.screen()}`);
  }

  /** Counts how often `text` shows, to wait for the next prompt after one already seen. */
  count(text: string): number {
    return this.screen().split(text).length - 1;
  }

  /** Types `text` literally, then Enter. */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'chat', '-l', text);
    this.tmux('send-keys', '-t', 'chat', 'Enter');
  }

  /** Sends tmux key names (`C-c`, `Escape`, `Down`, `Enter`). */
  keys(...names: string[]): void {
    this.tmux('send-keys', '-t', 'chat', ...names);
  }

  /** Whether cw has left (the pane stays, dead). */
  paneDead(): boolean {
    return this.tmux('display-message', '-p', '-t', 'chat', '#{pane_dead}').trim() === '1';
  }

  /** The pane's exit status once dead. */
  exitStatus(): number {
    return Number(this.tmux('display-message', '-p', '-t', 'chat', '#{pane_dead_status}').trim());
  }

  /** Stops the server and everything in it. */
  close(): void {
    spawnSync('tmux', ['-S', this.socket, 'kill-server']);
  }
}
