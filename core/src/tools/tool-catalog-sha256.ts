import { canonicalJson } from '../canonical/canonical-json.js';
import { isSealed } from '../canonical/sealed-json.js';
import { sha256Hex } from '../canonical/sha256.js';
import { SmallLru } from '../canonical/small-lru.js';
import type { ToolDefinition } from './tool-definition.js';

// A sealed tool definition (one whose schema nothing can change, canonical/sealed-json.ts) keeps its
// catalog line and a number for the life of the process; a list of sealed tools keeps its digest under
// those numbers. The catalog hash is then computed once per catalog, not once per request
// (docs/performance.md, "Work done once per process").
const sealedLines = new WeakMap<ToolDefinition, string>();
const sealedIds = new WeakMap<ToolDefinition, number>();
let nextId = 1;
const frozenListKeys = new WeakMap<readonly ToolDefinition[], string | null>();
const digests = new SmallLru<string, string>(16);

/** Logical catalog identity: name, description and canonical schema of each tool, in order. */
export function toolCatalogSha256(
  tools: readonly ToolDefinition[],
  /** Each tool's line, kept across the catalogs one manifest hashes, so a schema is serialized once. */
  lines = new Map<ToolDefinition, string>(),
): string {
  const key = sealedListKey(tools);
  const known = key === null ? undefined : digests.get(key);
  if (known !== undefined) return known;
  const digest = sha256Hex(tools.map((tool) => toolLine(tool, lines)).join(''));
  if (key !== null) digests.set(key, digest);
  return digest;
}

/** Whether a tool definition and its schema are sealed: nothing can change what it hashes to. */
export function isSealedTool(tool: ToolDefinition): boolean {
  return isSealed(tool) && isSealed(tool.input_schema);
}

/**
 * The numbers of the tools in order, when every one is sealed; null otherwise. Two lists with the same
 * key hold the same tools, which nothing can have changed: a key for what is derived from a catalog.
 */
export function sealedListKey(tools: readonly ToolDefinition[]): string | null {
  // A frozen list cannot change which tools it holds: its key is worked out once (a kept tool surface).
  const frozen = Object.isFrozen(tools);
  const known = frozen ? frozenListKeys.get(tools) : undefined;
  if (known !== undefined) return known;
  const key = listKey(tools);
  if (frozen) frozenListKeys.set(tools, key);
  return key;
}

function listKey(tools: readonly ToolDefinition[]): string | null {
  let key = `${tools.length}`;
  for (const tool of tools) {
    let id = sealedIds.get(tool);
    if (id === undefined) {
      if (!isSealedTool(tool)) return null;
      id = nextId;
      nextId += 1;
      sealedIds.set(tool, id);
    }
    key += `,${id}`;
  }
  return key;
}

function toolLine(tool: ToolDefinition, lines: Map<ToolDefinition, string>): string {
  let line = sealedLines.get(tool) ?? lines.get(tool);
  if (line === undefined) {
    line = `${tool.name}\u0001${tool.description}\u0001${canonicalJson(tool.input_schema)}\n`;
    if (isSealedTool(tool)) sealedLines.set(tool, line);
    else lines.set(tool, line);
  }
  return line;
}
