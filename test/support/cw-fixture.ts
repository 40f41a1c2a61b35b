import { afterAll, afterEach } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  loadPlugins,
  loadSnapshot,
  tapCoreStages,
  workspaceRoot,
  type CwSnapshot,
  type PluginDescriptor,
  type PluginRegistry,
} from '@cw/core';
import { workspaceKeyOf } from '../../core/src/state/session-location.js';

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

/**
 * The folder cw keeps a workspace's sessions in: the workspace of `cwd` (the git root above it), as
 * cw run from `cwd` finds it; cw run from the repository by default.
 */
export async function sessionsFolder(home: string, cwd: string = REPO_ROOT): Promise<string> {
  return join(home, 'sessions', workspaceKeyOf(await workspaceRoot(undefined, cwd)));
}

/**
 * The file of session `name` in the one workspace a test home holds sessions for (the repository's
 * when there is none yet, so a test can check that nothing was written).
 */
export async function sessionFile(home: string, name = 'default'): Promise<string> {
  return join(await onlyWorkspaceFolder(home), `${name}.json`);
}

/** The sessions folder of the one workspace in a test home; the repository's when there is none yet. */
export async function onlyWorkspaceFolder(home: string): Promise<string> {
  const entries = await readdir(join(home, 'sessions'), { withFileTypes: true }).catch(() => []);
  const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  if (folders.length > 1) throw new Error(`this home holds sessions for ${folders.length} workspaces`);
  if (folders[0] !== undefined) return join(home, 'sessions', folders[0]);
  // None yet: where cw run from the repository would put them, honouring config `workspace`.
  const config = await readFile(join(home, 'config.json'), 'utf8').then(
    (text) => JSON.parse(text) as { workspace?: unknown },
    () => ({}) as { workspace?: unknown },
  );
  const configured = typeof config.workspace === 'string' ? config.workspace : undefined;
  return join(home, 'sessions', workspaceKeyOf(await workspaceRoot(configured, REPO_ROOT)));
}

/**
 * Writes a session file directly, to set up history for a test: where cw run from `cwd` reads it
 * (`cwd: null`: kept by name only, as a snapshot loaded without a working folder reads it).
 */
export async function writeSession(
  home: string,
  name: string,
  messages: unknown[],
  cwd: string | null = REPO_ROOT,
): Promise<void> {
  const folder = cwd === null ? join(home, 'sessions') : await sessionsFolder(home, cwd);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, `${name}.json`), JSON.stringify({ version: 1, messages }));
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
