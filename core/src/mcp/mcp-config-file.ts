import { editConfigFile } from '../config/edit-config-file.js';
import {
  loadConfig,
  MCP_SERVER_NAME_PATTERN,
  type McpServerConfig,
  mcpServerConfigSchema,
} from '../config/cw-config.js';
import { safeEnvVarName } from '../redaction/safe-env-var-name.js';
import { safeIdentifier } from '../redaction/safe-label.js';
import { findLiteralSecret } from './find-literal-secret.js';
import { McpSnapshotError, updateMcpSnapshot } from './mcp-snapshot-store.js';

/**
 * `cw mcp add` or `cw mcp remove` cannot make the change; config.json is left as it was. The message is
 * cw's words and safe labels only: never a value the user gave.
 */
export class McpConfigEditError extends Error {
  override readonly name = 'McpConfigEditError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor(safeMessage: string) {
    super(safeMessage);
    this.safeMessage = safeMessage;
  }
}

/** The `mcpServers` of the config in `home`, validated (a ConfigError when config.json is invalid). */
export async function readMcpServers(home: string): Promise<Record<string, McpServerConfig>> {
  return (await loadConfig(home)).mcpServers;
}

/**
 * Adds one server to `config.json` in `home`, as `entry` is written (references unexpanded, no
 * defaults filled in). Refuses: a bad name, a name already configured, an entry the config schema
 * rejects, and a value that looks like a secret written out (it must be a `${env:NAME}` reference).
 * The whole config is checked first, so a broken file is reported rather than overwritten. Every
 * other key of the file is kept; the file is replaced atomically under a lock.
 */
export async function addMcpServer(home: string, name: string, entry: Record<string, unknown>): Promise<void> {
  if (!MCP_SERVER_NAME_PATTERN.test(name)) {
    throw new McpConfigEditError('a server name must be 1 to 64 letters, digits, - or _ (and not __proto__)');
  }
  const parsed = mcpServerConfigSchema.safeParse(entry);
  if (!parsed.success) {
    // The path starts at a field of cw's schema (unknown keys are reported without a path), and a
    // custom issue's message is cw's own words: neither repeats a value.
    const issue = parsed.error.issues[0];
    const field = issue && issue.path.length > 0 ? ` field ${String(issue.path[0])}` : '';
    const reason = issue?.code === 'custom' ? `: ${issue.message}` : '';
    throw new McpConfigEditError(`the server entry is not valid${field}${reason}; nothing was changed`);
  }
  refuseLiteralSecret(parsed.data);
  await editConfig(home, (servers) => {
    if (Object.hasOwn(servers, name)) {
      throw new McpConfigEditError(
        `an MCP server named ${safeIdentifier(name)} is already configured; remove it first (cw mcp remove ${safeIdentifier(name)})`,
      );
    }
    servers[name] = entry;
  });
}

/**
 * Removes one server from `config.json` in `home`, and its entry from the MCP snapshot. Returns false
 * (and changes nothing) when no server has that name.
 */
export async function removeMcpServer(home: string, name: string): Promise<boolean> {
  let removed = false;
  await editConfig(home, (servers) => {
    if (!Object.hasOwn(servers, name)) return;
    delete servers[name];
    removed = true;
  });
  if (!removed) return false;
  try {
    await updateMcpSnapshot(home, (snapshot) => {
      const { [name]: _gone, ...rest } = snapshot.servers;
      return { ...snapshot, servers: rest };
    });
  } catch (error) {
    // The config change stands; an unreadable snapshot is reported by the next list or refresh.
    if (!(error instanceof McpSnapshotError)) throw error;
  }
  return true;
}

function refuseLiteralSecret(server: McpServerConfig): void {
  const found = findLiteralSecret(server);
  if (found === null) return;
  const keep = 'keep it in your environment and write ${env:NAME} in its place';
  const nothing = 'Nothing was changed.';
  switch (found.field) {
    case 'env': {
      const name = safeEnvVarName(found.key ?? '');
      throw new McpConfigEditError(
        `the value of env ${name} looks like a secret written out: ${keep}, for example --env '${name}=\${env:${name}}'. ${nothing}`,
      );
    }
    case 'headers':
      throw new McpConfigEditError(
        `the value of header ${safeIdentifier(found.key ?? '')} looks like a secret written out: ${keep}, for example --header 'Authorization=Bearer \${env:MY_TOKEN}'. ${nothing}`,
      );
    case 'args':
      throw new McpConfigEditError(
        `an argument of the command looks like a secret written out: pass it to the server through --env instead and ${keep}. ${nothing}`,
      );
    case 'url':
      throw new McpConfigEditError(
        `the URL looks like it holds a secret: send it in a --header instead and ${keep}. ${nothing}`,
      );
  }
}

/**
 * Lets `change` edit the `mcpServers` of config.json as written, then writes only the entries it
 * added or removed: comments and the rest of the file are kept. A config that does not load is
 * reported, never silently rewritten; the write is atomic and under a lock (editConfigFile).
 */
async function editConfig(home: string, change: (servers: Record<string, unknown>) => void): Promise<void> {
  await editConfigFile(home, (current) => {
    const written = isObject(current) && isObject(current['mcpServers']) ? current['mcpServers'] : {};
    const servers = { ...written };
    change(servers);
    const removed = Object.keys(written).filter((name) => !Object.hasOwn(servers, name));
    const added = Object.keys(servers).filter((name) => !Object.hasOwn(written, name));
    return [
      ...removed.map((name) => ({ path: ['mcpServers', name], value: undefined })),
      ...added.map((name) => ({ path: ['mcpServers', name], value: servers[name] })),
    ];
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
