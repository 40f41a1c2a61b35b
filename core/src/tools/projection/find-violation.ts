import type { ToolSchemaRules } from '../tool-schema-rules.js';
import type { JsonSchema } from '../tool-definition.js';
import { refRepeatsAnnotation, unionRepeatsAnnotation } from './annotation-levels.js';
import { acceptsFormat, acceptsKeyword } from './keyword-policy.js';
import type { OmissionCode } from './projection-codes.js';
import { pointsIntoRootDefs, ROOT_ONLY_KEYWORDS } from './root-defs.js';
import { COMBINATOR_KEYWORDS } from './schema-keywords.js';
import { forEachSchemaNode, isObjectSchema, isSchemaNode, resolveLocalRef, type NodeVisit } from './schema-nodes.js';

// Keys an untyped node may hold and still count as "any value" (`{}` with a description).
const ANY_VALUE_KEYS = new Set(['description', 'title']);

/**
 * The first rule of the route a schema still breaks, or null when the route accepts it as is. The
 * walk order is fixed (root first, keys in authored order), so the same schema always yields the
 * same code. Only codes are returned: never a keyword, path or value from the schema.
 */
export function findViolation(schema: JsonSchema, rules: ToolSchemaRules): OmissionCode | null {
  if (rules.root_must_be_object && schema['type'] !== 'object') return 'root-not-object';
  if (!rules.allows_root_combinators && COMBINATOR_KEYWORDS.some((keyword) => keyword in schema))
    return 'root-combinator-not-accepted';
  if (rules.max_schema_bytes !== null && Buffer.byteLength(JSON.stringify(schema), 'utf8') > rules.max_schema_bytes)
    return 'limit-size';
  let violation: OmissionCode | null = null;
  let depth = 0;
  let properties = 0;
  let enumValues = 0;
  forEachSchemaNode(schema, (node, info) => {
    depth = Math.max(depth, info.objectDepth);
    if (isSchemaNode(node['properties'])) properties += Object.keys(node['properties']).length;
    if (Array.isArray(node['enum'])) enumValues += node['enum'].length;
    violation ??= nodeViolation(node, info, schema, rules);
  });
  if (violation !== null) return violation;
  if (!rules.allows_recursive_ref && hasRecursiveRef(schema)) return 'recursive-ref';
  if (rules.max_depth !== null && depth > rules.max_depth) return 'limit-depth';
  if (rules.max_properties !== null && properties > rules.max_properties) return 'limit-properties';
  if (rules.max_enum !== null && enumValues > rules.max_enum) return 'limit-enum';
  return null;
}

function nodeViolation(
  node: JsonSchema,
  info: NodeVisit,
  root: JsonSchema,
  rules: ToolSchemaRules,
): OmissionCode | null {
  // The specific codes first, so a diagnostic names the construct rather than one of its keywords.
  if (Array.isArray(node['items']) && !rules.allows_tuple_items) return 'tuple-items-not-accepted';
  if ('$ref' in node) {
    if (!rules.allows_ref) return 'ref-not-accepted';
    const ref = node['$ref'];
    if (typeof ref !== 'string' || resolveLocalRef(root, ref) === null) return 'ref-unresolvable';
    if (!rules.allows_ref_outside_defs && !pointsIntoRootDefs(root, ref)) return 'ref-outside-defs';
  }
  if (!rules.allows_ref_outside_defs && info.slot !== 'root' && ROOT_ONLY_KEYWORDS.some((key) => key in node))
    return 'keyword-not-accepted';
  if (Object.keys(node).some((keyword) => !acceptsKeyword(rules, keyword))) return 'keyword-not-accepted';
  if ('format' in node && !acceptsFormat(rules, node['format'])) return 'keyword-not-accepted';
  const unions = COMBINATOR_KEYWORDS.filter((keyword) => keyword in node);
  if (!rules.type_beside_combinator && unions.length > 0 && 'type' in node) return 'type-beside-combinator';
  const beside = rules.keywords_beside_union_or_ref;
  if (beside !== null && (unions.length > 0 || '$ref' in node)) {
    const held = new Set<string>([...unions, '$ref', ...beside, ...(info.slot === 'root' ? ROOT_ONLY_KEYWORDS : [])]);
    // Two unions, or a union beside `$ref`, is a keyword beside a union too.
    const holders = unions.length + ('$ref' in node ? 1 : 0);
    if (holders > 1 || Object.keys(node).some((key) => !held.has(key))) return 'sibling-not-accepted';
  }
  if (!rules.allows_type_list && Array.isArray(node['type'])) return 'type-list-not-accepted';
  if (rules.max_any_of !== null) {
    for (const keyword of ['anyOf', 'oneOf']) {
      const branches = node[keyword];
      if (Array.isArray(branches) && branches.length > rules.max_any_of) return 'limit-any-of';
    }
  }
  if (!rules.enum_allows_null && Array.isArray(node['enum']) && node['enum'].includes(null))
    return 'enum-null-not-accepted';
  if (rules.requires_type && node['type'] === undefined && unions.length === 0 && !('$ref' in node)) {
    const anyValue = Object.keys(node).every((key) => ANY_VALUE_KEYS.has(key));
    if (!(anyValue && (info.slot === 'root' || info.slot === 'additional-properties'))) return 'untyped-node';
  }
  if (!rules.allows_repeated_annotations && (unionRepeatsAnnotation(node) || refRepeatsAnnotation(root, node)))
    return 'annotation-repeated';
  if (rules.strict_default && isObjectSchema(node)) {
    if (node['additionalProperties'] !== false) return 'strict-not-satisfiable';
    const names = isSchemaNode(node['properties']) ? Object.keys(node['properties']) : [];
    const required = Array.isArray(node['required']) ? node['required'] : [];
    if (!names.every((name) => required.includes(name))) return 'strict-not-satisfiable';
  }
  return null;
}

/** Whether following in-document references from the root can come back to a reference already being followed. */
function hasRecursiveRef(root: JsonSchema): boolean {
  const refsUnder = (node: JsonSchema): string[] => {
    const refs: string[] = [];
    forEachSchemaNode(node, (child) => {
      const ref = child['$ref'];
      if (typeof ref === 'string') refs.push(ref);
    });
    return refs;
  };
  const done = new Set<string>();
  const visit = (ref: string, path: ReadonlySet<string>): boolean => {
    if (path.has(ref)) return true;
    if (done.has(ref)) return false;
    const target = resolveLocalRef(root, ref);
    const next = new Set(path).add(ref);
    const found = target !== null && refsUnder(target).some((inner) => visit(inner, next));
    done.add(ref);
    return found;
  };
  return refsUnder(root).some((ref) => visit(ref, new Set()));
}
