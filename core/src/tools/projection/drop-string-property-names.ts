import { isDeepStrictEqual } from 'node:util';
import type { ProjectionRule } from './projection-rule.js';
import { mapSchemaNodes, withoutKeys } from './schema-nodes.js';

// What zod 4 writes for the keys of a record. A JSON object's keys are always strings, so it holds for
// every object there is: removing it changes nothing about which arguments validate.
const STRING_KEYS = { type: 'string' };

/**
 * `drop-string-property-names`: removes `propertyNames: {"type": "string"}` wherever it is, on every
 * route. It is always true, so the schema accepts exactly what it accepted before; routes that refuse
 * `propertyNames` would otherwise omit the tool (or send it non-strict) for a constraint that says
 * nothing. Any other `propertyNames` is left alone.
 */
export const dropStringPropertyNames: ProjectionRule = {
  code: 'drop-string-property-names',
  apply(draft) {
    const parameters = mapSchemaNodes(draft.parameters, (node) =>
      isDeepStrictEqual(node['propertyNames'], STRING_KEYS) ? withoutKeys(node, ['propertyNames']) : node,
    );
    return parameters === draft.parameters ? draft : { ...draft, parameters };
  },
};
