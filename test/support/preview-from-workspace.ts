import type { RequestManifest } from '@cw/core';
import { expect } from 'vitest';
import { homeBytes } from './home-bytes.js';
import { runCwChild } from './spawn-cw.js';

/**
 * Runs `cw preview-request json` as a child in workspace `ws` (with `--prompt` when one is given),
 * checks it succeeded and left the cw home byte for byte as it was, and returns the manifest.
 */
export async function previewFromWorkspace(
  home: string,
  env: Record<string, string>,
  ws: string,
  prompt?: string,
): Promise<RequestManifest> {
  const before = await homeBytes(home);
  const run = await runCwChild(
    ['preview-request', 'json', ...(prompt === undefined ? [] : ['--prompt', prompt])],
    env,
    {
      cwd: ws,
    },
  );
  expect(run.code, run.stderr).toBe(0);
  expect(await homeBytes(home)).toEqual(before);
  return JSON.parse(run.stdout) as RequestManifest;
}
