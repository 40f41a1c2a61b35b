import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewRequest, type CwSnapshot } from '@cw/core';
import { sealJson } from '../core/src/canonical/sealed-json.js';
import { clearDigestCheckpoints } from '../core/src/canonical/digest-checkpoints.js';
import { clearProjectionCache, projectionsComputed } from '../core/src/tools/projection-cache.js';
import type { ToolDefinition } from '../core/src/tools/tool-definition.js';
import { builtinRegistry, removeHome, snapshotOf, tempHome } from './support/cw-fixture.js';

let home: string;
let base: CwSnapshot;

beforeAll(async () => {
  home = await tempHome();
  base = await snapshotOf(home, await builtinRegistry());
});
afterAll(async () => {
  await removeHome(home);
});

function on(routeId: string, catalog: readonly ToolDefinition[] = base.catalog): CwSnapshot {
  return { ...base, config: { ...base.config, route: routeId }, catalog };
}

/** Previews and says how many projections the engine computed for it. */
function preview(snapshot: CwSnapshot): { result: ReturnType<typeof previewRequest>; projected: number } {
  const before = projectionsComputed();
  const result = previewRequest(snapshot, 'hello', 'streaming');
  return { result, projected: projectionsComputed() - before };
}

const extra = (name: string): ToolDefinition =>
  sealJson<ToolDefinition>({
    name,
    description: `The ${name} tool.`,
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    origin: { kind: 'plugin', plugin: 'unit-test' },
    deferred: false,
  }) as ToolDefinition;

describe('previews of one process', () => {
  it('project a catalog once per route: the next preview with the same catalog and row does not project again', () => {
    clearProjectionCache();
    expect(preview(on('deepseek')).projected).toBe(1);
    expect(preview(on('deepseek')).projected).toBe(0);
    // Another row, or the catalog with one more tool, is projected afresh.
    expect(preview(on('moonshot')).projected).toBe(1);
    expect(preview(on('deepseek', [...base.catalog, extra('lookup')])).projected).toBe(1);
    expect(preview(on('deepseek')).projected).toBe(0);
  });

  it('give the manifest and body a cold process gives, on every built-in route', () => {
    const routes = ['deepseek', 'moonshot', 'anthropic', 'openai', 'gemini', 'ollama'].filter(
      (routeId) => base.registry.row(routeId) !== undefined,
    );
    expect(routes.length).toBeGreaterThanOrEqual(4);
    for (const routeId of routes) {
      clearProjectionCache();
      clearDigestCheckpoints();
      const cold = preview(on(routeId)).result;
      const warm = preview(on(routeId));
      expect(warm.projected).toBe(0);
      expect(warm.result.manifest).toEqual(cold.manifest);
      expect(warm.result.prepared?.canonical.wireText).toBe(cold.prepared?.canonical.wireText);
    }
  });
});
