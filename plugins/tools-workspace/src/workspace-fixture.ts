// Test support only (excluded from the build): real temporary workspaces and tool contexts.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { resolveHiddenPaths, workspaceFiles } from '../../../core/src/sandbox/workspace-files.js';
import type { ToolArguments, ToolContext, ToolImplementation, ToolLimits, ToolOutcome } from './tool-types.js';

export interface TempWorkspace {
  /** The workspace root, real and absolute. */
  readonly root: string;
  /** A sibling folder outside the workspace. */
  readonly outside: string;
  /** Writes a file under the workspace, making its folders. */
  write(relative: string, content: string | Uint8Array): Promise<string>;
  /** A tool context for this workspace. */
  context(overrides?: Partial<Omit<ToolContext, 'limits'>> & { readonly limits?: Partial<ToolLimits> }): ToolContext;
  /** File access that hides what config's `sandbox.deny_read` names (relative to the workspace). */
  denyRead(entries: readonly string[]): Promise<ToolContext['files']>;
  /** Runs a tool's executor in this workspace. */
  run(
    tool: ToolImplementation,
    args: ToolArguments,
    overrides?: Parameters<TempWorkspace['context']>[0],
  ): Promise<ToolOutcome>;
}

export const TEST_LIMITS: ToolLimits = { outputBytes: 4096, outputLines: 200, commandTimeoutMs: 5_000 };

/** Gives each test a fresh workspace (and a folder beside it), removed after the test. */
export function useTempWorkspace(): () => TempWorkspace {
  let base: string | null = null;
  let current: TempWorkspace | null = null;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'cw-tools-')));
    const root = path.join(base, 'workspace');
    const outside = path.join(base, 'outside');
    await mkdir(root);
    await mkdir(outside);
    const context: TempWorkspace['context'] = (overrides = {}) => ({
      workspace: root,
      signal: overrides.signal ?? new AbortController().signal,
      env: overrides.env ?? { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      limits: { ...TEST_LIMITS, ...overrides.limits },
      files: overrides.files ?? workspaceFiles(root, []),
      ...(overrides.sandbox ? { sandbox: overrides.sandbox } : {}),
      ...(overrides.offerUnsandboxedRun ? { offerUnsandboxedRun: overrides.offerUnsandboxedRun } : {}),
    });
    current = {
      root,
      outside,
      async write(relative, content) {
        const target = path.join(root, relative);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, content);
        return target;
      },
      context,
      denyRead: async (entries) =>
        workspaceFiles(
          root,
          await resolveHiddenPaths({ home: outside, cwHome: outside, denyRead: entries, cwd: root }),
        ),
      run: (tool, args, overrides) => tool.execute(args, context(overrides)),
    };
  });
  afterEach(async () => {
    if (base !== null) await rm(base, { recursive: true, force: true });
    base = null;
    current = null;
  });
  return () => {
    if (current === null) throw new Error('useTempWorkspace: no workspace outside a test');
    return current;
  };
}
