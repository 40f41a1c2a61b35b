import { afterAll, afterEach } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  loadPlugins,
  loadSnapshot,
  tapCoreStages,
  type CwSnapshot,
  type PluginDescriptor,
  type PluginRegistry,
} from '@cw/core';

/** The repository root, from this file's location. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The CLI's bin, for tests that run cw as a user would. */
export const CW_BIN = join(REPO_ROOT, 'cli', 'bin', 'run.js');
/** The default route the CLI ships with. */
export const DEFAULT_ROUTE_ID = 'deepseek';

/**
 * Descriptors for the built-in plugin packages, read from their package.json like oclif does. A
 * package without a `cw` field (the shared plugin-kit) is a library the plugins use, not a plugin.
 */
export async function builtinPluginDescriptors(): Promise<PluginDescriptor[]> {
  const folder = join(REPO_ROOT, 'plugins');
  const names = (await readdir(folder)).sort();
  const descriptors: PluginDescriptor[] = [];
  for (const name of names) {
    const root = join(folder, name);
    const pjson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      cw?: unknown;
    };
    if (pjson.cw === undefined) continue;
    descriptors.push({ name: pjson.name, version: pjson.version, root, cw: pjson.cw, type: 'core' });
  }
  return descriptors;
}

/** A registry with every built-in plugin loaded through the runtime loader and the core stages tapped. */
export async function builtinRegistry(): Promise<PluginRegistry> {
  const registry = await loadPlugins(await builtinPluginDescriptors());
  tapCoreStages(registry);
  return registry;
}

/** A fresh cw home folder, optionally with a config.json. */
export async function tempHome(config?: unknown): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'cw-test-'));
  if (config !== undefined) await writeFile(join(home, 'config.json'), JSON.stringify(config));
  return home;
}

/** Writes a session file directly, to set up history for a test. */
export async function writeSession(home: string, name: string, messages: unknown[]): Promise<void> {
  await mkdir(join(home, 'sessions'), { recursive: true });
  await writeFile(join(home, 'sessions', `${name}.json`), JSON.stringify({ version: 1, messages }));
}

/** A snapshot of a temp home with the built-in plugins. */
export async function snapshotOf(home: string, registry?: PluginRegistry): Promise<CwSnapshot> {
  return loadSnapshot({ home, registry: registry ?? (await builtinRegistry()), defaultRouteId: DEFAULT_ROUTE_ID });
}

/** Removes a temp home. */
export async function removeHome(home: string): Promise<void> {
  await rm(home, { recursive: true, force: true });
}

/** An obviously fake key for fixtures; never a real credential shape with entropy. */
export const FAKE_KEY = `sk-test-${'0'.repeat(32)}`;

/**
 * Gives a test file fresh cw homes: each call makes one, points CW_HOME at it, and the homes are
 * removed when the file's tests end.
 */
export function useCwHomes(): (config?: unknown) => Promise<string> {
  const homes: string[] = [];
  afterEach(() => {
    delete process.env['CW_HOME'];
  });
  afterAll(async () => {
    await Promise.all(homes.map(removeHome));
  });
  return async (config?: unknown) => {
    const folder = await tempHome(config);
    homes.push(folder);
    process.env['CW_HOME'] = folder;
    return folder;
  };
}
