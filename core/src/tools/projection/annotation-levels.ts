import type { JsonSchema } from '../tool-definition.js';
import { COMBINATOR_KEYWORDS } from './schema-keywords.js';
import { isSchemaNode, resolveLocalRef } from './schema-nodes.js';

/** The annotations a route may refuse to see twice on one level: a union or reference and what it stands for. */
export const LEVEL_ANNOTATIONS: readonly string[] = ['description', 'title'];

function annotationsOf(node: JsonSchema): string[] {
  return LEVEL_ANNOTATIONS.filter((key) => key in node);
}

/** A node that only points elsewhere: a `$ref` with nothing beside it but level annotations. */
function isPureRef(node: JsonSchema): boolean {
  return (
    typeof node['$ref'] === 'string' &&
    Object.keys(node).every((key) => key === '$ref' || LEVEL_ANNOTATIONS.includes(key))
  );
}

/** The branches of each union keyword a node holds. */
function unionBranches(node: JsonSchema): JsonSchema[][] {
  const lists: JsonSchema[][] = [];
  for (const keyword of COMBINATOR_KEYWORDS) {
    const branches = node[keyword];
    if (Array.isArray(branches)) lists.push(branches.filter(isSchemaNode));
  }
  return lists;
}

/** Whether a union node and one of its direct branches both carry the same level annotation. */
export function unionRepeatsAnnotation(node: JsonSchema): boolean {
  const outer = annotationsOf(node);
  if (outer.length === 0) return false;
  return unionBranches(node).some((branches) => branches.some((branch) => outer.some((key) => key in branch)));
}

/**
 * Whether a reference node and what it stands for both carry the same level annotation. What it
 * stands for: its target, and, while the target is itself a pure reference, that reference's target
 * (a chain counts as one level); then the direct branches of the last target when it is a union.
 */
export function refRepeatsAnnotation(root: JsonSchema, node: JsonSchema): boolean {
  const outer = annotationsOf(node);
  let ref = node['$ref'];
  if (outer.length === 0 || typeof ref !== 'string') return false;
  const seen = new Set<string>();
  let last: JsonSchema | null = null;
  while (typeof ref === 'string' && !seen.has(ref)) {
    seen.add(ref);
    const target = resolveLocalRef(root, ref);
    if (target === null) break;
    if (outer.some((key) => key in target)) return true;
    last = target;
    if (!isPureRef(target)) break;
    ref = target['$ref'];
  }
  if (last === null) return false;
  return unionBranches(last).some((branches) => branches.some((branch) => outer.some((key) => key in branch)));
}
