import type { JsonSchema } from '../tool-definition.js';
import { forEachSchemaNode, isSchemaNode, resolveLocalRef } from './schema-nodes.js';

/** Keywords a route that keeps references inside the root `$defs` accepts at the root only. */
export const ROOT_ONLY_KEYWORDS: readonly string[] = ['$defs', 'definitions', '$id'];

// `#/$defs/Name`, the name written plainly: no pointer escapes, no percent-encoding, no deeper path.
const DEFS_ENTRY = /^#\/\$defs\/([^/~%]+)$/;

/** Whether a definition name can be referenced as `#/$defs/Name` exactly as written. */
export function isPlainDefsName(name: string): boolean {
  return DEFS_ENTRY.test(`#/$defs/${name}`);
}

/** Whether a reference points at an entry of the root `$defs` (`#/$defs/Name`) or at the root itself (`#`). */
export function pointsIntoRootDefs(root: JsonSchema, ref: string): boolean {
  if (ref === '#') return true;
  const name = DEFS_ENTRY.exec(ref)?.[1];
  const defs = root['$defs'];
  return name !== undefined && isSchemaNode(defs) && Object.hasOwn(defs, name) && isSchemaNode(defs[name]);
}

/** Every `$ref` string under a node, the node itself included, in walk order. */
export function refsUnder(node: JsonSchema): string[] {
  const refs: string[] = [];
  forEachSchemaNode(node, (child) => {
    const ref = child['$ref'];
    if (typeof ref === 'string') refs.push(ref);
  });
  return refs;
}

/** Whether following references from `ref`'s target can come back to `ref` or into another loop. */
export function refLeadsToRecursion(root: JsonSchema, ref: string): boolean {
  const done = new Set<string>();
  const visit = (current: string, path: ReadonlySet<string>): boolean => {
    if (path.has(current)) return true;
    if (done.has(current)) return false;
    const target = resolveLocalRef(root, current);
    const next = new Set(path).add(current);
    const found = target !== null && refsUnder(target).some((inner) => visit(inner, next));
    done.add(current);
    return found;
  };
  return visit(ref, new Set());
}
