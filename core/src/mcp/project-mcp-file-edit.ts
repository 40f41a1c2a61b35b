import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MCP_SERVER_NAME_PATTERN, mcpServerConfigSchema } from '../config/cw-config.js';
import { safeIdentifier } from '../redaction/safe-label.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { withFileLock } from '../state/file-lock.js';
import { findLiteralSecret } from './find-literal-secret.js';
import { McpConfigEditError } from './mcp-config-file.js';
import {
  isProjectMcpTrusted,
  PROJECT_MCP_FILE,
  type ProjectMcpFile,
  readProjectMcpFile,
  trustProjectMcp,
} from './project-mcp-servers.js';

/**
 * `cw mcp add --scope project`: adds one server to the workspace's `.mcp.json` (created when absent),
 * keeping every other key; atomic, under a lock. The same refusals as a user-scope add: a bad name,
 * a taken name, an entry cw cannot use, a secret written out. The person wrote the entry, so a file
 * they trusted before (or a new one) stays trusted as changed.
 */
export async function addProjectMcpServer(
  home: string,
  workspace: string,
  name: string,
  entry: Record<string, unknown>,
): Promise<void> {
  if (!MCP_SERVER_NAME_PATTERN.test(name)) {
    throw new McpConfigEditError('a server name must be 1 to 64 letters, digits, - or _ (and not __proto__)');
  }
  const parsed = mcpServerConfigSchema.safeParse(entry);
  if (!parsed.success) throw new McpConfigEditError('the server entry is not valid; nothing was changed');
  if (findLiteralSecret(parsed.data) !== null) {
    throw new McpConfigEditError(
      'a value looks like a secret written out: keep it in your environment and write ${env:NAME} in its place. Nothing was changed.',
    );
  }
  const path = join(workspace, PROJECT_MCP_FILE);
  await withFileLock(path, async () => {
    const before: ProjectMcpFile | null = await readProjectMcpFile(workspace);
    const wasTrusted = before === null || (await isProjectMcpTrusted(home, workspace, before));
    let document: Record<string, unknown> = {};
    if (before !== null) document = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    const servers =
      typeof document['mcpServers'] === 'object' && document['mcpServers'] !== null
        ? { ...(document['mcpServers'] as Record<string, unknown>) }
        : {};
    if (Object.hasOwn(servers, name)) {
      throw new McpConfigEditError(
        `${PROJECT_MCP_FILE} already has a server named ${safeIdentifier(name)}; nothing was changed`,
      );
    }
    servers[name] = entry;
    await writeFileAtomic(path, `${JSON.stringify({ ...document, mcpServers: servers }, null, 2)}\n`);
    const after = await readProjectMcpFile(workspace);
    // Only the new entry's files are recorded afresh: an edit elsewhere still needs trusting again.
    if (wasTrusted && after !== null) await trustProjectMcp(home, workspace, after, { only: [name] });
  });
}
