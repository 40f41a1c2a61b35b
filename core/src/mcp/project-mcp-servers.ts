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

/** Workspace key (SHA-256 of its real path) to the SHA-256 of the `.mcp.json` bytes trusted there. */
async function readTrust(home: string): Promise<Record<string, string>> {
  try {
    const raw = JSON.parse(await readFile(trustPath(home), 'utf8')) as { workspaces?: unknown };
    if (!isRecord(raw.workspaces)) return {};
    return Object.fromEntries(
      Object.entries(raw.workspaces).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/** Whether the person trusted this exact `.mcp.json` for this workspace. */
export async function isProjectMcpTrusted(home: string, workspace: string, file: ProjectMcpFile): Promise<boolean> {
  return (await readTrust(home))[sha256Hex(workspace)] === file.sha256;
}

/** Records trust in the workspace's `.mcp.json` as it is now (atomic, locked). */
export async function trustProjectMcp(home: string, workspace: string, file: ProjectMcpFile): Promise<void> {
  await mkdir(join(home, 'mcp'), { recursive: true, mode: 0o700 });
  const path = trustPath(home);
  await withFileLock(path, async () => {
    const workspaces = { ...(await readTrust(home)), [sha256Hex(workspace)]: file.sha256 };
    await writeFileAtomic(path, `${JSON.stringify({ version: 1, workspaces }, null, 2)}\n`);
  });
}

/** How the project servers stand for one command: used, waiting for trust, or shadowed by a user server. */
export interface ProjectMcpStatus {
  readonly file: ProjectMcpFile | null;
  readonly trusted: boolean;
  /** Project servers left out because a server of the same name is configured in the cw home. */
  readonly shadowed: readonly string[];
}

/**
 * The config with the workspace's trusted project servers added after the user's own, and how they
 * stand. A user server keeps its name: a project server of the same name is left out. An untrusted
 * or missing file adds nothing. Reads two small files; never starts anything.
 */
export async function withProjectMcpServers(
  home: string,
  workspace: string | null,
  config: CwConfig,
): Promise<{ config: CwConfig; status: ProjectMcpStatus }> {
  const none = { config, status: { file: null, trusted: false, shadowed: [] } };
  if (workspace === null) return none;
  let file: ProjectMcpFile | null;
  try {
    file = await readProjectMcpFile(workspace);
  } catch {
    // A broken project file never stops a command: its servers are simply not used (cw mcp list says why).
    return none;
  }
  if (file === null) return none;
  const trusted = await isProjectMcpTrusted(home, workspace, file);
  const shadowed = Object.keys(file.servers).filter((name) => Object.hasOwn(config.mcpServers, name));
  if (!trusted) return { config, status: { file, trusted, shadowed } };
  const added = Object.fromEntries(
    Object.entries(file.servers).filter(([name]) => !Object.hasOwn(config.mcpServers, name)),
  );
  return {
    config: Object.keys(added).length === 0 ? config : { ...config, mcpServers: { ...config.mcpServers, ...added } },
    status: { file, trusted, shadowed },
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
  const merged = await withProjectMcpServers(home, workspace, config);
  const scopes: Record<string, McpServerScope> = {};
  for (const name of Object.keys(merged.config.mcpServers))
    scopes[name] = Object.hasOwn(config.mcpServers, name) ? 'user' : 'project';
  return { servers: { ...merged.config.mcpServers }, scopes, workspace, status: merged.status };
}
