import { createHash } from 'node:crypto';

/** An MCP tool under the name cw sends, and the (server, tool) it maps back to. */
export interface McpToolName {
  readonly wireName: string;
  readonly server: string;
  readonly tool: string;
}

// The strictest tool-name rule among the routes cw knows: letters, digits, `_` and `-`, at most 64,
// starting with a letter. A name that meets it is sendable on every route, so projection never has
// to drop an MCP tool for its name.
const MAX_NAME = 64;
const HASH_LENGTH = 8;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, HASH_LENGTH);
}

function clean(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * Names every MCP tool `mcp__<server>__<tool>`, encoded to the strictest rule: other characters
 * become `_`, and a name that is too long, or that would collide with a name already taken (a
 * built-in tool, another MCP tool), keeps a readable prefix and gains a hash of the original pair.
 * Deterministic: servers in name order, tools in the order the server listed them.
 */
export function mcpToolNames(
  servers: readonly { readonly name: string; readonly tools: readonly { readonly name: string }[] }[],
  taken: ReadonlySet<string>,
): McpToolName[] {
  const used = new Set(taken);
  const names: McpToolName[] = [];
  for (const server of [...servers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    for (const tool of server.tools) {
      const plain = `mcp__${clean(server.name)}__${clean(tool.name)}`;
      let wireName = plain;
      if (wireName.length > MAX_NAME || used.has(wireName) || wireName !== `mcp__${server.name}__${tool.name}`) {
        // An encoded or shortened name carries the hash of the real pair, so two tools that encode
        // alike (`a.b` and `a_b`) still get distinct names.
        const suffix = `_${shortHash(`${server.name}\u0000${tool.name}`)}`;
        wireName =
          plain.length + suffix.length > MAX_NAME ? plain.slice(0, MAX_NAME - suffix.length) + suffix : plain + suffix;
      }
      for (let attempt = 1; used.has(wireName); attempt++) {
        const suffix = `_${shortHash(`${server.name}\u0000${tool.name}\u0000${attempt}`)}`;
        wireName = plain.slice(0, MAX_NAME - suffix.length) + suffix;
      }
      used.add(wireName);
      names.push({ wireName, server: server.name, tool: tool.name });
    }
  }
  return names;
}
