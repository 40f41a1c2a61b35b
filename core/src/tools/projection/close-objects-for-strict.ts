import type { JsonValue } from '../../canonical/canonical-json.js';
import type { ToolSchemaRules } from '../tool-schema-rules.js';
import type { JsonSchema } from '../tool-definition.js';
import type { ProjectionRule } from './projection-rule.js';
import { isObjectSchema, isSchemaNode, mapSchemaNodes, withoutKeys, type NodeSlot } from './schema-nodes.js';

class CannotClose extends Error {}

/**
 * `close-objects-for-strict`: the strict-mode rewrite. Every object gets `additionalProperties:
 * false` and lists every property in `required`; a property that was optional becomes nullable, so
 * the model says "no value" with `null` instead of leaving it out. A free-form map (an object whose
 * `additionalProperties` is a schema, or a nested object with no properties) cannot be strict: the
 * whole tool is then left as authored, and the engine falls back to sending it non-strict.
 */
export const closeObjectsForStrict: ProjectionRule = {
  code: 'close-objects-for-strict',
  apply(draft, rules) {
    if (!rules.strict_default) return draft;
    try {
      const parameters = mapSchemaNodes(draft.parameters, (node, slot) => close(node, slot, rules));
      return parameters === draft.parameters ? draft : { ...draft, parameters };
    } catch (error) {
      if (error instanceof CannotClose) return draft;
      throw error;
    }
  },
};

function close(node: JsonSchema, slot: NodeSlot, rules: ToolSchemaRules): JsonSchema {
  if (!isObjectSchema(node)) return node;
  if (Array.isArray(node['type'])) throw new CannotClose();
  const open = node['additionalProperties'];
  if (open !== undefined && typeof open !== 'boolean') throw new CannotClose();
  const properties = isSchemaNode(node['properties']) ? node['properties'] : {};
  const names = Object.keys(properties);
  if (names.length === 0 && slot !== 'root' && open !== false) throw new CannotClose();
  const required = Array.isArray(node['required']) ? node['required'] : [];
  const allRequired =
    names.every((name) => required.includes(name)) &&
    required.every((name) => typeof name === 'string' && names.includes(name));
  if (open === false && allRequired && 'properties' in node) return node;
  const nullable: Record<string, JsonValue> = {};
  for (const name of names) {
    const schema = properties[name] as JsonValue;
    if (required.includes(name)) nullable[name] = schema;
    else if (isSchemaNode(schema)) nullable[name] = allowNull(schema, rules);
    else throw new CannotClose();
  }
  return { ...node, properties: nullable, required: names, additionalProperties: false };
}

/** The same schema, also accepting `null`: a type list where the route takes one, else an `anyOf` branch. */
function allowNull(schema: JsonSchema, rules: ToolSchemaRules): JsonSchema {
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return schema;
  const values = schema['enum'];
  const enumTakesNull = values === undefined || rules.enum_allows_null;
  if (rules.allows_type_list && enumTakesNull && 'const' in schema === false) {
    if (typeof type === 'string') {
      const widened: Record<string, JsonValue> = { ...schema, type: [type, 'null'] };
      if (Array.isArray(values)) widened['enum'] = [...values, null];
      return widened;
    }
    if (Array.isArray(type)) return { ...schema, type: [...type, 'null'] };
  }
  const description = schema['description'];
  const inner = withoutKeys(schema, ['description']);
  return typeof description === 'string'
    ? { description, anyOf: [inner, { type: 'null' }] }
    : { anyOf: [inner, { type: 'null' }] };
}
