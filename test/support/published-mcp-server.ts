// The published reference MCP servers (devDependencies), started over stdio from their package's
// `bin` script with this Node: no npx, no network.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './cw-fixture.js';

const requireFromRepo = createRequire(join(REPO_ROOT, 'package.json'));

/** The bin script of an installed package, from its package.json `bin`. */
export async function binScript(pkg: string): Promise<string> {
  const manifestPath = requireFromRepo.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${pkg} declares no bin`);
  return join(dirname(manifestPath), bin);
}

/** A config entry for server-everything over stdio. */
export async function everythingEntry(): Promise<{ command: string; args: string[] }> {
  return { command: process.execPath, args: [await binScript('@modelcontextprotocol/server-everything'), 'stdio'] };
}

/** A config entry for server-filesystem rooted at `root`. */
export async function filesystemEntry(root: string): Promise<{ command: string; args: string[] }> {
  return { command: process.execPath, args: [await binScript('@modelcontextprotocol/server-filesystem'), root] };
}
