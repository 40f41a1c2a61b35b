import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckedValues } from '../core/src/validation/checked-values.js';
import {
  type CwSnapshot,
  loadPlugins,
  previewRequest,
  recordCheckedValues,
  tapCoreStages,
  useCheckedValues,
} from '@cw/core';
import { CW_BIN, REPO_ROOT, builtinPluginDescriptors, removeHome, snapshotOf, tempHome } from './support/cw-fixture.js';

const run = promisify(execFile);
const SHIPPED = join(REPO_ROOT, 'cli', 'dist', 'checked-values.json');
// Reports at exit whether zod was ever loaded in the process: every schema in the core loads it with require.
const ZOD_PROBE = join(REPO_ROOT, 'test', 'fixtures', 'zod-probe.cjs');

const scratch = await mkdtemp(join(tmpdir(), 'cw-recorded-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** The built-in registry, and how many checks reached a schema (a recording keeps only those). */
async function registry(recorded: CheckedValues | null) {
  useCheckedValues(recorded ?? { version: 1, entries: {} });
  const stop = recordCheckedValues();
  try {
    const loaded = await loadPlugins(await builtinPluginDescriptors());
    tapCoreStages(loaded);
    return Object.assign(loaded, { schemaChecks: Object.keys(stop().entries).length });
  } finally {
    stop();
    useCheckedValues({ version: 1, entries: {} });
  }
}

/** JSON Pointers of every frozen object and array in a value. */
function frozenPaths(value: unknown, path = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return [
    ...(Object.isFrozen(value) ? [path] : []),
    ...Object.entries(value).flatMap(([key, child]) => frozenPaths(child, `${path}/${key}`)),
  ];
}

async function zodWasLoaded(home: string, args: string[]): Promise<boolean> {
  const { stdout, stderr } = await run(process.execPath, ['--require', ZOD_PROBE, CW_BIN, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, CW_HOME: home, NO_COLOR: '1' },
  });
  expect(stdout.length).toBeGreaterThan(0);
  const verdict = /zod-probe: (loaded|not loaded)/.exec(stderr)?.[1];
  expect(verdict).toBeDefined();
  return verdict === 'loaded';
}

describe('schema checks recorded when the CLI is built', () => {
  it('are what a recording made now gives: the shipped file is never stale', async () => {
    const fresh = join(scratch, 'fresh.json');
    await run(process.execPath, [join(REPO_ROOT, 'scripts', 'record-checked-values.mjs'), fresh], { cwd: REPO_ROOT });
    const [shipped, now] = await Promise.all([readFile(SHIPPED, 'utf8'), readFile(fresh, 'utf8')]);
    expect(Object.keys(JSON.parse(now).entries).length).toBeGreaterThan(20);
    expect(shipped).toBe(now);
  });

  it('give the built-in rows exactly as the schema gives them, and the same preview on every route', async () => {
    const recorded = JSON.parse(await readFile(SHIPPED, 'utf8')) as CheckedValues;
    const fromRecord = await registry(recorded);
    const fromSchema = await registry(null);
    // Every row was answered from the record, and each of them was checked by the schema without it.
    expect(fromRecord.schemaChecks).toBe(0);
    expect(fromSchema.schemaChecks).toBeGreaterThanOrEqual(fromSchema.rows.length);
    expect(fromRecord.problems).toEqual([]);
    expect(fromRecord.rows).toStrictEqual(fromSchema.rows);
    expect(fromRecord.rows.map((row) => frozenPaths(row))).toEqual(fromSchema.rows.map((row) => frozenPaths(row)));

    const home = await tempHome();
    try {
      const preview = async (loaded: typeof fromRecord, route: string): Promise<string> => {
        useCheckedValues(loaded === fromRecord ? recorded : { version: 1, entries: {} });
        try {
          const snapshot: CwSnapshot = await snapshotOf(home, loaded);
          const routed = { ...snapshot, config: { ...snapshot.config, route } };
          return JSON.stringify(previewRequest(routed, 'hi', 'streaming').manifest);
        } finally {
          useCheckedValues({ version: 1, entries: {} });
        }
      };
      for (const row of fromSchema.rows) {
        expect(await preview(fromRecord, row.route_id)).toBe(await preview(fromSchema, row.route_id));
      }
    } finally {
      await removeHome(home);
    }
  });

  it('let a preview with no config run without loading zod, and a config file still gets the schema', async () => {
    const empty = await tempHome();
    const configured = await tempHome({ route: 'deepseek', reasoning: 'high' });
    try {
      expect(await zodWasLoaded(empty, ['preview-request', 'json', '--prompt', 'hi'])).toBe(false);
      expect(await zodWasLoaded(configured, ['preview-request', 'json', '--prompt', 'hi'])).toBe(true);
    } finally {
      await Promise.all([removeHome(empty), removeHome(configured)]);
    }
  });

  it('are not used when they were recorded for another core version', async () => {
    const recorded = JSON.parse(await readFile(SHIPPED, 'utf8')) as { core: string };
    const original = await readFile(SHIPPED, 'utf8');
    const home = await tempHome();
    try {
      await writeFile(SHIPPED, JSON.stringify({ ...recorded, core: `${recorded.core}-other` }));
      expect(await zodWasLoaded(home, ['preview-request', 'json', '--prompt', 'hi'])).toBe(true);
    } finally {
      await writeFile(SHIPPED, original);
      await removeHome(home);
    }
  });
});
