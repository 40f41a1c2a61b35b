import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex } from '../canonical/sha256.js';
import {
  type CwConfig,
  MCP_SERVER_NAME_PATTERN,
  type McpServerConfig,
  mcpServerConfigSchema,
} from '../config/cw-config.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { withFileLock } from '../state/file-lock.js';
import { serverFileDigest } from './server-file-digest.js';

// A workspace's `.mcp.json` (the `mcpServers` shape other agents read) names programs to run, so cw
// uses it only after the person trusted that file as it is now: a changed file needs trusting again
// (docs/mcp.md). Trust lives in the cw home, never in the workspace.

/** The name of the project-scoped MCP file at a workspace root. */
export const PROJECT_MCP_FILE = '.mcp.json';

/** What a workspace's `.mcp.json` holds, as cw reads it. */
export interface ProjectMcpFile {
  /** The file's SHA-256: trust is given to these exact bytes. */
  readonly sha256: string;
  /** The servers cw can use, in file order. */
  readonly servers: Readonly<Record<string, McpServerConfig>>;
  /** Entries cw cannot use, each a reason in cw's words (names are safe labels). */
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
}

/** The `.mcp.json` at `workspace`, or null when there is none. A file that is not JSON is a ProjectMcpError. */
export async function readProjectMcpFile(workspace: string): Promise<ProjectMcpFile | null> {
  let text: string;
  try {
    text = await readFile(join(workspace, PROJECT_MCP_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ProjectMcpError(`the workspace's ${PROJECT_MCP_FILE} cannot be read`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ProjectMcpError(`the workspace's ${PROJECT_MCP_FILE} is not JSON; fix it or remove it`);
  }
  const entries = isRecord(raw) && isRecord(raw['mcpServers']) ? raw['mcpServers'] : {};
  const servers: Record<string, McpServerConfig> = {};
  const skipped: { name: string; reason: string }[] = [];
  for (const [name, entry] of Object.entries(entries)) {
    if (!MCP_SERVER_NAME_PATTERN.test(name)) {
      skipped.push({ name: '(unnamed)', reason: 'a server name must be 1 to 64 letters, digits, - or _' });
      continue;
    }
    // Other agents write the transport as `type`; cw knows it from `command` or `url`.
    const { type, ...rest } = isRecord(entry) ? entry : { type: undefined };
    if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'streamable-http') {
      skipped.push({ name, reason: 'only stdio and streamable HTTP servers are supported' });
      continue;
    }
    const parsed = mcpServerConfigSchema.safeParse(rest);
    if (!parsed.success) {
      skipped.push({ name, reason: 'the entry is not one cw can use (docs/mcp.md lists the fields)' });
      continue;
    }
    servers[name] = parsed.data;
  }
  return { sha256: sha256Hex(text), servers, skipped };
}

/** The workspace's `.mcp.json` cannot be used; the message names no path. */
export class ProjectMcpError extends Error {
  override readonly name = 'ProjectMcpError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor(safeMessage: string) {
    super(safeMessage);
    this.safeMessage = safeMessage;
  }
}

function trustPath(home: string): string {
  return join(home, 'mcp', 'trusted-projects.json');
}

/** What the person trusted in one workspace: the `.mcp.json` bytes, and the workspace files each server runs. */
interface WorkspaceTrust {
  /** SHA-256 of the `.mcp.json` bytes. */
  readonly mcp_json: string;
  /** Server name to the digest of the workspace files it names (server-file-digest.ts); absent when it named none. */
  readonly files: Readonly<Record<string, string>>;
}

/** Workspace key (SHA-256 of its real path) to what was trusted there. */
async function readTrust(home: string): Promise<Record<string, WorkspaceTrust>> {
  try {
    const raw = JSON.parse(await readFile(trustPath(home), 'utf8')) as { workspaces?: unknown };
    if (!isRecord(raw.workspaces)) return {};
    const out: Record<string, WorkspaceTrust> = {};
    for (const [key, value] of Object.entries(raw.workspaces)) {
      // A record from before file digests were kept: the servers that run a workspace file need trusting again.
      if (typeof value === 'string') out[key] = { mcp_json: value, files: {} };
      else if (isRecord(value) && typeof value['mcp_json'] === 'string') {
        const files = isRecord(value['files']) ? value['files'] : {};
        out[key] = {
          mcp_json: value['mcp_json'],
          files: Object.fromEntries(
            Object.entries(files).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
          ),
        };
      }
    }
    return out;
  } catch {
    return {};
  }
}

/** Whether the person trusted this exact `.mcp.json` for this workspace. */
export async function isProjectMcpTrusted(home: string, workspace: string, file: ProjectMcpFile): Promise<boolean> {
  return (await readTrust(home))[sha256Hex(workspace)]?.mcp_json === file.sha256;
}

/**
 * Records trust in the workspace's `.mcp.json` as it is now, with the workspace files each server
 * runs as they are now (atomic, locked). `only`: record the files of these servers afresh and keep
 * what was trusted for the others (a server the person just added).
 */
export async function trustProjectMcp(
  home: string,
  workspace: string,
  file: ProjectMcpFile,
  options: { readonly cwd?: string; readonly only?: readonly string[] } = {},
): Promise<void> {
  await mkdir(join(home, 'mcp'), { recursive: true, mode: 0o700 });
  const path = trustPath(home);
  const cwd = options.cwd ?? process.cwd();
  await withFileLock(path, async () => {
    const trust = await readTrust(home);
    const key = sha256Hex(workspace);
    const files: Record<string, string> = {};
    for (const [name, server] of Object.entries(file.servers)) {
      const kept = options.only !== undefined && !options.only.includes(name);
      const digest = kept ? trust[key]?.files[name] : await serverFileDigest(workspace, server, cwd);
      if (digest !== undefined && digest !== null) files[name] = digest;
    }
    const workspaces = { ...trust, [key]: { mcp_json: file.sha256, files } };
    await writeFileAtomic(path, `${JSON.stringify({ version: 2, workspaces }, null, 2)}\n`);
  });
}

/** How the project servers stand for one command: used, waiting for trust, or shadowed by a user server. */
export interface ProjectMcpStatus {
  readonly file: ProjectMcpFile | null;
  readonly trusted: boolean;
  /** Project servers left out because a server of the same name is configured in the cw home. */
  readonly shadowed: readonly string[];
  /** Project servers left out because a workspace file they run changed since the person trusted them. */
  readonly changed: readonly string[];
  /** For each project server added: the digest of its workspace files as trusted, checked again before it starts. */
  readonly digests: Readonly<Record<string, string | null>>;
}

/**
 * The config with the workspace's trusted project servers added after the user's own, and how they
 * stand. A user server keeps its name: a project server of the same name is left out, and so is one
 * whose workspace files changed since they were trusted. An untrusted or missing file adds nothing.
 * Reads small files; never starts anything.
 */
export async function withProjectMcpServers(
  home: string,
  workspace: string | null,
  config: CwConfig,
  cwd: string = process.cwd(),
): Promise<{ config: CwConfig; status: ProjectMcpStatus }> {
  const none = { config, status: { file: null, trusted: false, shadowed: [], changed: [], digests: {} } };
  if (workspace === null) return none;
  let file: ProjectMcpFile | null;
  try {
    file = await readProjectMcpFile(workspace);
  } catch {
    // A broken project file never stops a command: its servers are simply not used (cw mcp list says why).
    return none;
  }
  if (file === null) return none;
  const trust = (await readTrust(home))[sha256Hex(workspace)];
  const trusted = trust?.mcp_json === file.sha256;
  const shadowed = Object.keys(file.servers).filter((name) => Object.hasOwn(config.mcpServers, name));
  if (!trusted) return { config, status: { file, trusted, shadowed, changed: [], digests: {} } };
  const added: Record<string, McpServerConfig> = {};
  const changed: string[] = [];
  const digests: Record<string, string | null> = {};
  for (const [name, server] of Object.entries(file.servers)) {
    if (Object.hasOwn(config.mcpServers, name)) continue;
    // Trust covers the files a server runs as well as its entry: an edited script is another program.
    const digest = await serverFileDigest(workspace, server, cwd);
    if (digest !== (trust.files[name] ?? null)) changed.push(name);
    else {
      added[name] = server;
      digests[name] = digest;
    }
  }
  return {
    config: Object.keys(added).length === 0 ? config : { ...config, mcpServers: { ...config.mcpServers, ...added } },
    status: { file, trusted, shadowed, changed, digests },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a configured server comes from: config.json in the cw home, or the workspace's `.mcp.json`. */
export type McpServerScope = 'user' | 'project';

/**
 * The servers a command in `cwd` uses: the user's, then the trusted project ones, each with its scope;
 * and how the project file stands. What `cw mcp list`, `refresh` and `get` work from.
 */
export async function readEffectiveMcpServers(
  home: string,
  cwd: string = process.cwd(),
): Promise<{
  servers: Record<string, McpServerConfig>;
  scopes: Record<string, McpServerScope>;
  workspace: string;
  status: ProjectMcpStatus;
}> {
  const [{ loadConfig }, { workspaceRoot }] = await Promise.all([
    import('../config/cw-config.js'),
    import('../state/workspace-root.js'),
  ]);
  const config = await loadConfig(home);
  const workspace = await workspaceRoot(config.workspace, cwd);
  const merged = await withProjectMcpServers(home, workspace, config, cwd);
  const scopes: Record<string, McpServerScope> = {};
  for (const name of Object.keys(merged.config.mcpServers))
    scopes[name] = Object.hasOwn(config.mcpServers, name) ? 'user' : 'project';
  return { servers: { ...merged.config.mcpServers }, scopes, workspace, status: merged.status };
}
