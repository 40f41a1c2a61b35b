import type { JsonValue } from '../../canonical/canonical-json.js';
import type { JsonSchema } from '../tool-definition.js';
import { LEVEL_ANNOTATIONS, refRepeatsAnnotation } from './annotation-levels.js';
import type { ProjectionRule } from './projection-rule.js';
import { refLeadsToRecursion, ROOT_ONLY_KEYWORDS } from './root-defs.js';
import { COMBINATOR_KEYWORDS } from './schema-keywords.js';
import { isSchemaNode, mapSchemaNodes, mergeSchemas, resolveLocalRef, withoutKeys } from './schema-nodes.js';

// Each pass settles one level or inlines one reference; a schema settles long before this.
const MAX_PASSES = 64;

/**
 * `one-description-per-level`: on a route that refuses the same `description` (or `title`) on a
 * union and inside one of its branches, or beside a `$ref` and in the schema it references, the
 * outer one wins: it was written where the parameter is named, and it is what the model reads
 * first. A branch loses its own. A reference whose target (or the union the target is) has its own
 * is inlined at that place, keeping the outer annotation, since the shared definition must stay
 * whole for its other uses. Annotations never change which arguments validate. A recursive
 * reference leaves the node as authored.
 */
export const oneDescriptionPerLevel: ProjectionRule = {
  code: 'one-description-per-level',
  apply(draft, rules) {
    if (rules.allows_repeated_annotations) return draft;
    let current = draft.parameters;
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      const root = current;
      const next = mapSchemaNodes(root, (node) => settle(node, root));
      if (next === current) break;
      current = next;
    }
    return current === draft.parameters ? draft : { ...draft, parameters: current };
  },
};

function settle(node: JsonSchema, root: JsonSchema): JsonSchema {
  const outer = LEVEL_ANNOTATIONS.filter((key) => key in node);
  if (outer.length === 0) return node;
  let changed = false;
  const rewritten: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!(COMBINATOR_KEYWORDS as readonly string[]).includes(key) || !Array.isArray(value)) {
      rewritten[key] = value;
      continue;
    }
    rewritten[key] = value.map((branch) => {
      if (!isSchemaNode(branch) || !outer.some((name) => name in branch)) return branch;
      changed = true;
      return withoutKeys(branch, outer);
    });
  }
  if (changed) return rewritten;
  const ref = node['$ref'];
  if (typeof ref !== 'string' || !refRepeatsAnnotation(root, node) || refLeadsToRecursion(root, ref)) return node;
  const target = resolveLocalRef(root, ref);
  if (!target) return node;
  return mergeSchemas(withoutKeys(node, ['$ref']), withoutKeys(target, ROOT_ONLY_KEYWORDS)) ?? node;
}
