import type { JsonValue } from '../../canonical/canonical-json.js';
import type { JsonSchema } from '../tool-definition.js';
import type { ProjectionRule } from './projection-rule.js';
import { refLeadsToRecursion, ROOT_ONLY_KEYWORDS } from './root-defs.js';
import { COMBINATOR_KEYWORDS, KEYWORDS_BY_TYPE, isAnnotationKeyword } from './schema-keywords.js';
import {
  isSchemaNode,
  mapSchemaNodes,
  mergeSchemas,
  resolveLocalRef,
  withoutKeys,
  type NodeSlot,
} from './schema-nodes.js';

const TYPE_SPECIFIC = new Set(Object.values(KEYWORDS_BY_TYPE).flat());
// Each pass moves keywords one level down or inlines one reference; a schema settles long before this.
const MAX_PASSES = 64;

/**
 * `siblings-into-branches`: on a route that takes only a few keywords (`description`, `title` on
 * MFJS) beside `anyOf` / `oneOf` / `allOf` or `$ref`, every other keyword leaves that node.
 * Assertions (`type`, bounds, `properties`, `required`, …) move into each branch, A and (B or C)
 * being (A and B) or (A and C); a keyword of one instance type skips a branch of another type, where
 * it never applied. Beside `$ref`, the target is inlined at that place and merged with them.
 * Annotations the route refuses there (`default`, `examples`, …) are dropped: they never change which
 * arguments validate. A union at the root (that is `flatten-root-union`'s), a branch that disagrees,
 * or a recursive or unresolvable reference leaves the node as authored.
 */
export const siblingsIntoBranches: ProjectionRule = {
  code: 'siblings-into-branches',
  apply(draft, rules) {
    const accepted = rules.keywords_beside_union_or_ref;
    if (accepted === null) return draft;
    let current = draft.parameters;
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      const root = current;
      const next = mapSchemaNodes(root, (node, slot) => isolate(node, slot, root, accepted));
      if (next === current) break;
      current = next;
    }
    return current === draft.parameters ? draft : { ...draft, parameters: current };
  },
};

function isolate(node: JsonSchema, slot: NodeSlot, root: JsonSchema, accepted: readonly string[]): JsonSchema {
  // One union, or one `$ref`: a node holding more than one of them is left to the route's check.
  const holders = [...COMBINATOR_KEYWORDS, '$ref'].filter((keyword) => keyword in node);
  const holder = holders[0];
  if (holder === undefined || holders.length > 1) return node;
  const stays = (key: string): boolean =>
    key === holder || accepted.includes(key) || (slot === 'root' && ROOT_ONLY_KEYWORDS.includes(key));
  const extra = Object.keys(node).filter((key) => !stays(key));
  if (extra.length === 0) return node;
  const dropped = extra.filter(isAnnotationKeyword);
  const moving = extra.filter((key) => !isAnnotationKeyword(key));
  if (moving.length === 0) return withoutKeys(node, dropped);
  // Definitions belong where references find them, never in a branch or a merged target.
  if (moving.some((key) => ROOT_ONLY_KEYWORDS.includes(key))) return node;
  if (holder === '$ref') return inlineTarget(node, root, dropped);
  if (slot === 'root') return node;
  return distribute(node, holder, moving, dropped);
}

/** Beside `$ref`: the target merged with the assertions beside it, standing where the `$ref` stood. */
function inlineTarget(node: JsonSchema, root: JsonSchema, dropped: readonly string[]): JsonSchema {
  const ref = node['$ref'];
  if (typeof ref !== 'string' || refLeadsToRecursion(root, ref)) return node;
  const target = resolveLocalRef(root, ref);
  if (!target) return node;
  return mergeSchemas(withoutKeys(node, ['$ref', ...dropped]), withoutKeys(target, ROOT_ONLY_KEYWORDS)) ?? node;
}

/** Beside a union: each assertion into every branch it applies to; the node keeps its accepted keywords. */
function distribute(
  node: JsonSchema,
  union: string,
  moving: readonly string[],
  dropped: readonly string[],
): JsonSchema {
  const branches = node[union];
  if (!Array.isArray(branches)) return node;
  const merged: JsonSchema[] = [];
  for (const branch of branches) {
    if (!isSchemaNode(branch)) return node;
    const type = branch['type'];
    const shared: Record<string, JsonValue> = {};
    for (const key of moving) {
      const value = node[key] as JsonValue;
      // An empty property map adds nothing to a branch.
      if (key === 'properties' && isSchemaNode(value) && Object.keys(value).length === 0) continue;
      // A keyword of one instance type says nothing about a branch of another type.
      if (typeof type === 'string' && TYPE_SPECIFIC.has(key) && !KEYWORDS_BY_TYPE[type]?.includes(key)) continue;
      shared[key] = value;
    }
    const combined = mergeSchemas(branch, shared);
    if (!combined) return node;
    merged.push(combined);
  }
  const rewritten: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === union) rewritten[key] = merged;
    else if (!moving.includes(key) && !dropped.includes(key)) rewritten[key] = value;
  }
  return rewritten;
}
