import type { JsonValue } from '../canonical/canonical-json.js';
import type { ToolArguments } from '../tools/tool-contract.js';
import type { JsonSchema } from '../tools/tool-definition.js';

/** Arguments ready to run, or the reason the model must fix them. */
export type CheckedArguments =
  | { readonly ok: true; readonly args: ToolArguments }
  | { readonly ok: false; readonly problem: string };

type Validate = ((value: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };

// Compiled once per schema object for the life of the process; ajv loads only when a tool call runs.
const compiled = new WeakMap<JsonSchema, Validate | null>();
const MAX_LISTED_PROBLEMS = 3;

/**
 * Parses a call's arguments and checks them against the tool's own schema. A strict route made
 * every optional property required-but-nullable, so a model there sends `null` for "absent": such
 * nulls are turned back into absent keys first, where the tool's schema does not itself allow null.
 */
export async function checkToolArguments(text: string, schema: JsonSchema): Promise<CheckedArguments> {
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { ok: false, problem: 'the arguments are not valid JSON; send one JSON object' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, problem: 'the arguments must be a JSON object' };
  }
  const args = restoreAbsentOptionals(parsed as { [key: string]: JsonValue }, schema);
  const validate = await validatorFor(schema);
  if (validate !== null && !validate(args)) {
    const problems = (validate.errors ?? [])
      .slice(0, MAX_LISTED_PROBLEMS)
      .map(
        (error) => `${error.instancePath === '' ? 'arguments' : error.instancePath} ${error.message ?? 'is invalid'}`,
      );
    return { ok: false, problem: `the arguments do not match the tool's schema: ${problems.join('; ')}` };
  }
  return { ok: true, args };
}

/** Drops `null` values of optional properties whose schema does not accept null, at every object level. */
export function restoreAbsentOptionals(
  value: { [key: string]: JsonValue },
  schema: JsonSchema,
): { [key: string]: JsonValue } {
  const properties = asSchemaMap(schema['properties']);
  if (properties === null) return value;
  const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
  const out: { [key: string]: JsonValue } = {};
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = properties[key];
    if (item === null && !required.has(key) && propertySchema !== undefined && !acceptsNull(propertySchema)) continue;
    out[key] =
      propertySchema !== undefined && typeof item === 'object' && item !== null && !Array.isArray(item)
        ? restoreAbsentOptionals(item, propertySchema)
        : item;
  }
  return out;
}

function acceptsNull(schema: JsonSchema): boolean {
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema['enum']) && schema['enum'].includes(null)) return true;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.some((branch) => isSchema(branch) && acceptsNull(branch))) return true;
  }
  return false;
}

async function validatorFor(schema: JsonSchema): Promise<Validate | null> {
  if (compiled.has(schema)) return compiled.get(schema) ?? null;
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  let validate: Validate | null;
  try {
    // `$schema` naming another draft would make ajv refuse the schema; the keywords are what matter.
    const { $schema: _declared, ...rest } = schema;
    validate = ajv.compile(rest) as Validate;
  } catch {
    // A schema ajv cannot compile is not the model's fault: the tool checks its own arguments.
    validate = null;
  }
  compiled.set(schema, validate);
  return validate;
}

function asSchemaMap(value: JsonValue | undefined): { [key: string]: JsonSchema } | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as { [key: string]: JsonSchema })
    : null;
}

function isSchema(value: JsonValue): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
