import { access, readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';

/** A plugin package cw will not link or keep installed; its message is cw's words and safe labels only. */
export class PluginPackageError extends Error {
  readonly safeMessage: string;
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = 'PluginPackageError';
    this.safeMessage = message;
  }
}

interface PackageFacts {
  readonly name: string;
  readonly version: string;
  readonly cw: unknown;
}

/** The name, version and `cw` field of the package in `root`; a folder without one is not a plugin. */
export async function readPluginPackage(root: string): Promise<PackageFacts> {
  let pjson: { name?: unknown; version?: unknown; cw?: unknown };
  try {
    pjson = JSON.parse(await readFile(resolve(root, 'package.json'), 'utf8')) as typeof pjson;
  } catch {
    throw new PluginPackageError('that folder has no readable package.json; give the folder of a plugin package');
  }
  return {
    name: typeof pjson.name === 'string' ? pjson.name : '',
    version: typeof pjson.version === 'string' ? pjson.version : '',
    cw: pjson.cw,
  };
}

/**
 * Checks what cw checks before it uses a plugin package: that cw serves the plugin API version it declares, and
 * that the module `cw.register` names is inside the package and exists (an unbuilt plugin has none).
 * A package with no `cw` field is an ordinary oclif plugin and passes. `label` is the already
 * redacted package name; nothing from disk is put in the message.
 */
export async function checkPluginPackage(
  root: string,
  cw: unknown,
  label: string,
  refusal: (declared: unknown, label: string) => string | null,
): Promise<void> {
  if (cw === undefined) return;
  const field = (typeof cw === 'object' && cw !== null ? cw : {}) as { apiVersion?: unknown; register?: unknown };
  // The versions this cw serves, and the one line for any other, come from the core's version table.
  const refused = refusal(field.apiVersion, label);
  if (refused !== null) throw new PluginPackageError(`plugin ${label} ${refused}`);
  if (typeof field.register !== 'string' || field.register === '') {
    throw new PluginPackageError(`plugin ${label} has no cw.register entry in its package.json`);
  }
  const base = resolve(root);
  const entry = resolve(base, field.register);
  if (!entry.startsWith(base + sep)) {
    throw new PluginPackageError(`plugin ${label} has a cw.register entry that points outside the package`);
  }
  try {
    await access(entry);
  } catch {
    throw new PluginPackageError(
      `plugin ${label} is not built: the module its cw.register names does not exist; build it (npm run build) and try again`,
    );
  }
}
