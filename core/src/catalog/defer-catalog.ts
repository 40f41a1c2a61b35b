import { sealJson } from '../canonical/sealed-json.js';
import type { ConversationMessage } from '../prompt/conversation.js';
import type { ToolArguments, ToolImplementation } from '../tools/tool-contract.js';
import type { JsonSchema, ToolDefinition } from '../tools/tool-definition.js';

/** The name of cw's own meta-tool that searches the tools a large catalog keeps back. */
export const SEARCH_TOOLS_NAME = 'search_tools';

/** Without a route limit, a catalog larger than this is deferred as if the route allowed this many tools. */
export const DEFERRAL_THRESHOLD = 64;

/** How many entries one search returns when the call names no limit, and the most it ever returns. */
export const DEFAULT_SEARCH_LIMIT = 8;
export const MAX_SEARCH_LIMIT = 50;

const SEARCH_TOOLS_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'Words to look for in the names and descriptions of the deferred tools.' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_SEARCH_LIMIT,
      description: `Most tools to return (default ${DEFAULT_SEARCH_LIMIT}).`,
    },
  },
  required: ['query'],
  additionalProperties: false,
};

const SEARCH_TOOLS_DESCRIPTION =
  'Search the tools that are available but not listed yet, by words in their names and descriptions. ' +
  'The tools it returns can be called from the next request on.';

/** The catalog entry of the meta-tool; it is not a catalog tool and joins the surface only when tools are deferred. */
export const SEARCH_TOOLS_DEFINITION: ToolDefinition = sealedDefinition({
  name: SEARCH_TOOLS_NAME,
  description: SEARCH_TOOLS_DESCRIPTION,
  input_schema: SEARCH_TOOLS_SCHEMA,
  origin: { kind: 'plugin', plugin: '@cw/core' },
  deferred: false,
});

/** Sealed, as the registry's tools are, so its projection and catalog line are kept per process. */
function sealedDefinition(definition: ToolDefinition): ToolDefinition {
  return sealJson(definition) ?? definition;
}

/** The tool surface after deferral: what goes up front, and what only `search_tools` can reach. */
export interface DeferredCatalog {
  /** The tools projection starts from, in order; holds `search_tools` when anything was deferred by size. */
  readonly upFront: readonly ToolDefinition[];
  /** The tools `search_tools` searches: config-deferred tools, then the ones this split kept back, in catalog order. */
  readonly deferred: readonly ToolDefinition[];
  /** Whether the catalog was too large and `search_tools` was added. */
  readonly searchable: boolean;
}

/**
 * Splits the active catalog when it is larger than the route takes (`maxTools`) or, without a route
 * limit, larger than DEFERRAL_THRESHOLD, and holds MCP tools. Plugin tools keep their places up
 * front, `search_tools` follows them (or takes the limit's last place when they fill it), then MCP
 * tools loaded by earlier searches (earliest first), then the other MCP tools taken one per server in
 * turn, servers in `serverOrder` (config order; a server not named there after them, in catalog
 * order), each server's tools in the order it listed them, while room is left: every server gets an
 * equal share whatever its name. Every MCP tool beyond the room is deferred. The limit counts
 * `search_tools`. Below the limit, or without MCP tools, nothing changes. Pure and deterministic.
 */
export function deferCatalog(
  active: readonly ToolDefinition[],
  configDeferred: readonly ToolDefinition[],
  maxTools: number | null,
  loaded: readonly string[],
  serverOrder: readonly string[] = [],
): DeferredCatalog {
  const limit = maxTools ?? DEFERRAL_THRESHOLD;
  if (active.length <= limit || limit < 1) return { upFront: active, deferred: configDeferred, searchable: false };
  const plugins = active.filter((tool) => tool.origin.kind === 'plugin');
  // Only MCP tools are ever deferred: a catalog of plugin tools alone is projected as before.
  if (plugins.length === active.length) return { upFront: active, deferred: configDeferred, searchable: false };
  const candidates = [...active.filter((tool) => tool.origin.kind !== 'plugin'), ...configDeferred];
  let room = Math.max(0, limit - 1 - plugins.length);
  const chosen = new Set<ToolDefinition>();
  const byName = new Map(candidates.map((tool) => [tool.name, tool] as const));
  for (const name of loaded) {
    const tool = byName.get(name);
    if (room === 0) break;
    if (tool === undefined || chosen.has(tool)) continue;
    chosen.add(tool);
    room -= 1;
  }
  const queues = serverQueues(
    active.filter((tool) => tool.origin.kind !== 'plugin' && !chosen.has(tool)),
    serverOrder,
  );
  while (room > 0 && queues.some((queue) => queue.length > 0)) {
    for (const queue of queues) {
      const tool = queue.shift();
      if (room === 0 || tool === undefined) continue;
      chosen.add(tool);
      room -= 1;
    }
  }
  const loadedFirst = loaded.flatMap((name) => {
    const tool = byName.get(name);
    return tool !== undefined && chosen.has(tool) ? [tool] : [];
  });
  const ordered = [...new Set([...loadedFirst, ...active.filter((tool) => chosen.has(tool))])];
  return {
    // When the plugin tools alone fill the limit, search_tools takes the last place within it.
    upFront: [...plugins.slice(0, limit - 1), SEARCH_TOOLS_DEFINITION, ...plugins.slice(limit - 1), ...ordered],
    deferred: candidates.filter((tool) => !chosen.has(tool)),
    searchable: true,
  };
}

/** The MCP tools grouped by server, servers in `serverOrder` first, then the rest in catalog order. */
function serverQueues(tools: readonly ToolDefinition[], serverOrder: readonly string[]): ToolDefinition[][] {
  const byServer = new Map<string, ToolDefinition[]>();
  for (const name of serverOrder) byServer.set(name, []);
  for (const tool of tools) {
    const server = tool.origin.kind === 'mcp' ? tool.origin.server : '';
    const queue = byServer.get(server) ?? [];
    queue.push(tool);
    byServer.set(server, queue);
  }
  return [...byServer.values()].filter((queue) => queue.length > 0);
}

/**
 * The tools earlier `search_tools` results in the session loaded, earliest first, each once. Read
 * only from the stored messages (the final `loaded:` line of each successful result), so a preview
 * and the send of the same session agree.
 */
export function loadedToolNames(messages: readonly ConversationMessage[]): string[] {
  const names: string[] = [];
  for (const message of messages) {
    if (message.role !== 'tool' || message.name !== SEARCH_TOOLS_NAME) continue;
    if (message.status !== undefined && message.status !== 'ok') continue;
    const last = message.content.trimEnd().split('\n').at(-1) ?? '';
    if (!last.startsWith('loaded:')) continue;
    for (const name of last.slice('loaded:'.length).split(',')) {
      const trimmed = name.trim();
      if (trimmed !== '' && !names.includes(trimmed)) names.push(trimmed);
    }
  }
  return names;
}

/** One search hit. */
export interface ToolSearchHit {
  readonly tool: ToolDefinition;
  readonly score: number;
}

/**
 * Ranks tools by how many of the query's words (case-insensitive) occur in their name or
 * description; a tool matching none is left out, and ties keep the given order.
 */
export function searchTools(tools: readonly ToolDefinition[], query: string, limit: number): ToolSearchHit[] {
  const words = [
    ...new Set(
      query
        .toLowerCase()
        .split(/\s+/)
        .filter((word) => word !== ''),
    ),
  ];
  if (words.length === 0) return [];
  return tools
    .map((tool, index) => {
      const text = `${tool.name}\n${tool.description}`.toLowerCase();
      return { tool, index, score: words.filter((word) => text.includes(word)).length };
    })
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, Math.max(0, limit))
    .map(({ tool, score }) => ({ tool, score }));
}

const MAX_DESCRIPTION_CHARS = 200;

/** The result text a search returns: one `name — description` line per hit, then `loaded: …`. */
export function formatSearchResult(hits: readonly ToolSearchHit[], query: string): string {
  if (hits.length === 0) return `No deferred tool matches "${query}". Try other words.\nloaded:`;
  const lines = hits.map(({ tool }) => {
    const flat = tool.description.replace(/\s+/g, ' ').trim();
    const description = flat.length > MAX_DESCRIPTION_CHARS ? `${flat.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : flat;
    return `${tool.name} — ${description}`;
  });
  return [...lines, `loaded: ${hits.map(({ tool }) => tool.name).join(', ')}`].join('\n');
}

/** The executor of `search_tools` over one request's deferred tools; the agent loop runs it locally. */
export function searchToolsImplementation(deferred: readonly ToolDefinition[]): ToolImplementation {
  return {
    name: SEARCH_TOOLS_NAME,
    description: SEARCH_TOOLS_DESCRIPTION,
    inputSchema: SEARCH_TOOLS_SCHEMA,
    readOnly: true,
    summarize: (args: ToolArguments) =>
      typeof args['query'] === 'string' ? args['query'].replace(/[\p{Cc}\p{Cf}]/gu, ' ').slice(0, 60) : '',
    execute: async (args: ToolArguments) => {
      const query = typeof args['query'] === 'string' ? args['query'] : '';
      const asked = typeof args['limit'] === 'number' ? Math.floor(args['limit']) : DEFAULT_SEARCH_LIMIT;
      const limit = Math.min(MAX_SEARCH_LIMIT, Math.max(1, asked));
      return { status: 'ok', content: formatSearchResult(searchTools(deferred, query, limit), query) };
    },
  };
}
