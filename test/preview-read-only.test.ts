import { readFile, readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewRequest, type CwSnapshot } from '@cw/core';
import { builtinRegistry, snapshotOf, useCwHomes, sessionFile, writeSession } from './support/cw-fixture.js';
import { HISTORY_WITH_TOOL_RESULTS } from './support/manifest-preview.js';
import { runCw } from './support/run-cw.js';

/** Freezes a value and everything it holds, so any write during preview throws (ESM code is strict). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

describe('preview changes nothing', () => {
  const home = useCwHomes();

  it('never writes to the snapshot, on any route or entry point', async () => {
    const folder = await home({ reasoning: 'high' });
    await writeSession(
      folder,
      'default',
      [
        ...HISTORY_WITH_TOOL_RESULTS,
        { role: 'assistant', content: '', tool_calls: [{ id: 'open', name: 'shell', arguments: '{}' }] },
      ],
      null,
    );
    const registry = await builtinRegistry();
    const loaded = await snapshotOf(folder, registry);
    for (const row of registry.rows) {
      // The registry holds hooks (functions and tapable state) and is shared; everything else is frozen.
      const state = deepFreeze(
        structuredClone({ ...loaded, registry: undefined, config: { ...loaded.config, route: row.route_id } }),
      );
      const snapshot = Object.freeze({ ...state, registry }) as CwSnapshot;
      const before = JSON.stringify({ ...snapshot, registry: undefined });
      for (const entrypoint of ['streaming', 'blocking'] as const) {
        const { prepared, manifest } = previewRequest(snapshot, 'change nothing', entrypoint);
        expect(prepared, `${row.route_id} ${JSON.stringify(manifest.body)}`).not.toBeNull();
      }
      expect(JSON.stringify({ ...snapshot, registry: undefined })).toBe(before);
    }
  });

  it('leaves the cw home byte for byte as it was', async () => {
    const folder = await home({ route: 'deepseek' });
    await writeSession(folder, 'default', HISTORY_WITH_TOOL_RESULTS as unknown[]);
    const files = ['config.json', relative(folder, await sessionFile(folder))];
    const snapshotFiles = async (): Promise<string[]> =>
      Promise.all(
        files.map(
          async (file) =>
            `${(await readFile(join(folder, file), 'utf8')).length}:${(await stat(join(folder, file))).mtimeMs}`,
        ),
      );
    const before = { listing: await readdir(folder, { recursive: true }), files: await snapshotFiles() };
    for (const argv of [
      ['preview-request', 'json', '--prompt', 'x'],
      ['preview-request', '--blocking', '--prompt', 'x'],
      ['preview-request'],
      ['preview-request', 'base-prompt'],
    ]) {
      expect((await runCw(argv)).exitCode).toBe(0);
    }
    expect({ listing: await readdir(folder, { recursive: true }), files: await snapshotFiles() }).toEqual(before);
  });
});
