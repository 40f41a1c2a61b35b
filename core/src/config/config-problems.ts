import type { z } from 'zod';
import { isShowableUserLabel } from '../redaction/safe-user-label.js';
import { formatConfigPath } from './config-key-path.js';
import { closestWord } from '../text/closest-word.js';
import {
  type ConfigPathSegment,
  type ConfigText,
  type TextPosition,
  duplicateFields,
  nodeAt,
  positionAt,
} from './config-text.js';

/** One thing wrong with config.json, in cw's words: where, which field, what was found, what is accepted. */
export interface ConfigProblem {
  readonly position: TextPosition | null;
  /** The field as `cw config get` takes it; null for a syntax problem. */
  readonly field: string | null;
  readonly message: string;
}

/**
 * Values a field accepts that the schema cannot list, because plugins supply them (dialect ids).
 * Returns undefined for a field it knows nothing about.
 */
export type AcceptedValues = (path: readonly ConfigPathSegment[]) => readonly string[] | undefined;

/** `config.json:3:17: routes.local.dialect: …`: one line per problem, the file named relative to the cw home. */
export function formatConfigProblem(problem: ConfigProblem): string {
  const where =
    problem.position === null ? 'config.json' : `config.json:${problem.position.line}:${problem.position.column}`;
  return problem.field === null ? `${where}: ${problem.message}` : `${where}: ${problem.field}: ${problem.message}`;
}

/** Every syntax problem, then every duplicated field: what must be fixed before the schema can judge. */
export function textProblems(
  config: ConfigText,
  fieldNames: ReadonlySet<string>,
  refuseDuplicates: boolean,
): ConfigProblem[] {
  // The parser reports one missing brace once per object left open; the person needs to read it once.
  const seen = new Set<string>();
  const syntax = config.syntaxProblems
    .map((problem) => ({ position: problem.position, field: null, message: `not valid JSON: ${problem.message}` }))
    .filter((problem) => {
      const line = formatConfigProblem(problem);
      if (seen.has(line)) return false;
      seen.add(line);
      return true;
    });
  if (syntax.length > 0) return syntax;
  if (config.tree !== undefined && config.tree.type !== 'object') {
    return [
      { position: positionOf(config, config.tree.offset), field: null, message: 'must be a JSON object ({ … })' },
    ];
  }
  if (!refuseDuplicates) return [];
  return duplicateFields(config.tree).map(({ path, node }) => ({
    position: positionOf(config, node.offset),
    field: formatConfigPath(path, fieldNames),
    message: 'written twice in one object; remove one (only the last would count)',
  }));
}

/** Turns the schema's issues into problems, each placed at its field in the text. */
export function schemaProblems(
  schema: z.ZodType,
  issues: readonly z.core.$ZodIssue[],
  config: ConfigText,
  accepted: AcceptedValues,
  fieldNames: ReadonlySet<string>,
  /** The fields an object takes where the schema cannot be looked into (a transform picks the shape). */
  knownFields: AcceptedValues = () => undefined,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of issues) {
    const path = issue.path.filter((segment): segment is ConfigPathSegment => typeof segment !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      const known = knownFieldsAt(schema, path) ?? knownFields(path);
      for (const key of issue.keys) {
        const hint = known === undefined ? '' : knownFieldsHint(key, known);
        problems.push({
          position: positionOf(config, nodeAt(config.tree, [...path, key], true)?.offset),
          field: formatConfigPath([...path, key], fieldNames),
          message: `unknown field${hint}`,
        });
      }
      continue;
    }
    problems.push({
      position: positionOf(config, nodeAt(config.tree, path)?.offset),
      field: formatConfigPath(path, fieldNames),
      message: describeIssue(issue, valueAt(config.value, path), accepted(path)),
    });
  }
  // In the order they appear in the file, so a reader can go down it once.
  return problems.sort(
    (a, b) =>
      (a.position?.line ?? Infinity) - (b.position?.line ?? Infinity) ||
      (a.position?.column ?? 0) - (b.position?.column ?? 0),
  );
}

/** Every field name the schema declares, at any depth: cw's own words, always printable. */
export function schemaFieldNames(schema: z.ZodType): Set<string> {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (node: z.ZodType | undefined): void => {
    if (node === undefined || seen.has(node)) return;
    seen.add(node);
    const def = defOf(node);
    if (def.type === 'object') {
      for (const [name, child] of Object.entries(def['shape'] as Record<string, z.ZodType>)) {
        names.add(name);
        walk(child);
      }
    }
    for (const child of childrenOf(def)) walk(child);
  };
  walk(schema);
  return names;
}

// Zod's own messages quote the user's keys and values; the words here are cw's, and a found value
// is shown only when it is showable (docs/config.md).
function describeIssue(issue: z.core.$ZodIssue, found: Found, hinted: readonly string[] | undefined): string {
  const foundText = found.present ? `; found ${describeFound(found.value)}` : '';
  const acceptedList = (values: readonly unknown[]): string => `; accepted: ${values.map(String).join(', ')}`;
  switch (issue.code) {
    case 'invalid_value':
      return `not an accepted value${foundText}${acceptedList(issue.values)}`;
    case 'invalid_type':
      if (!found.present) return `is required; accepted: ${article(issue.expected)}`;
      return `wrong type${foundText}; accepted: ${hinted === undefined ? article(issue.expected) : hinted.join(', ')}`;
    case 'invalid_format': {
      // A pattern's message is cw's own (set in the schema); zod's default names the pattern only.
      const rule =
        issue.format === 'regex'
          ? issue.message
          : `must be a valid ${issue.format}${issue.format === 'url' ? ' (http or https)' : ''}`;
      return `${rule}${foundText}${hinted === undefined ? '' : acceptedList(hinted)}`;
    }
    case 'too_big':
      return `${issue.origin === 'string' ? 'too long' : issue.origin === 'array' ? 'too many entries' : 'too large'}${foundText}; accepted: ${bound('at most', issue.maximum, issue.origin)}`;
    case 'too_small':
      return `${issue.origin === 'string' ? 'too short' : issue.origin === 'array' ? 'too few entries' : 'too small'}${foundText}; accepted: ${bound('at least', issue.minimum, issue.origin)}`;
    case 'not_multiple_of':
      return `not a multiple of ${String(issue.divisor)}${foundText}`;
    case 'custom':
      // cw's own refinements: the message is cw's words (set in the schema).
      return `${issue.message}${foundText}`;
    case 'invalid_union':
      return `matches none of the accepted shapes${foundText}; see docs/config.md`;
    case 'invalid_key':
      return 'has a field name that is not accepted; see docs/config.md';
    case 'invalid_element':
      return `has an entry that is not accepted${foundText}`;
    default:
      return `is not accepted${foundText}`;
  }
}

function bound(words: string, limit: number | bigint, origin: string): string {
  const unit = origin === 'string' ? ' characters' : origin === 'array' ? ' entries' : '';
  return `${words} ${String(limit)}${unit}`;
}

function article(expected: string): string {
  if (expected === 'object' || expected === 'array' || expected === 'int')
    return expected === 'int' ? 'an integer' : `an ${expected}`;
  return `a ${expected}`;
}

interface Found {
  readonly present: boolean;
  readonly value: unknown;
}

/** What was written, as cw may print it: a showable string or a plain number as written, else its type. */
export function describeFound(value: unknown): string {
  if (typeof value === 'string') return isShowableUserLabel(value) ? JSON.stringify(value.trim()) : 'a string';
  if (typeof value === 'number')
    return Number.isFinite(value) && String(value).length <= 24 ? String(value) : 'a number';
  if (typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return 'an array';
  return 'an object';
}

function valueAt(root: unknown, path: readonly ConfigPathSegment[]): Found {
  let value = root;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment))
      return { present: false, value: undefined };
    value = (value as Record<string | number, unknown>)[segment];
  }
  return { present: true, value };
}

function positionOf(config: ConfigText, offset: number | undefined): TextPosition | null {
  return offset === undefined ? null : positionAt(config.text, offset);
}

// "Did you mean" for a near miss (one or two edits), then the fields the object takes.
function knownFieldsHint(key: string, known: readonly string[]): string {
  const lowered = known.map((name) => name.toLowerCase());
  const closest = closestWord(key.toLowerCase(), lowered);
  const near = closest === undefined ? undefined : known[lowered.indexOf(closest)];
  const suggestion = near === undefined ? '' : `; did you mean ${near}?`;
  return `${suggestion}; accepted: ${known.join(', ')}`;
}

// Zod 4 keeps each schema's definition on `_zod.def`; only the wrappers a config schema uses are
// followed. A transform (the MCP entries) cannot be looked into, and ends the walk.
interface SchemaDef {
  readonly type: string;
  readonly [key: string]: unknown;
}

function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

function childrenOf(def: SchemaDef): z.ZodType[] {
  const keys = ['innerType', 'in', 'out', 'valueType', 'element'] as const;
  return keys.map((key) => def[key]).filter((child): child is z.ZodType => typeof child === 'object' && child !== null);
}

function unwrap(schema: z.ZodType): z.ZodType {
  let node = schema;
  for (;;) {
    const def = defOf(node);
    if (['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional'].includes(def.type)) {
      node = def['innerType'] as z.ZodType;
    } else if (def.type === 'pipe') {
      const input = def['in'] as z.ZodType;
      // `unknown().refine().pipe(shape)`: the shape is on the output side.
      node = ['unknown', 'any'].includes(defOf(input).type) ? (def['out'] as z.ZodType) : input;
    } else {
      return node;
    }
  }
}

/** The field names the object at `path` takes, when the schema there is a plain object. */
export function knownFieldsAt(schema: z.ZodType, path: readonly ConfigPathSegment[]): string[] | undefined {
  let node: z.ZodType | undefined = unwrap(schema);
  for (const segment of path) {
    const def = defOf(node);
    if (def.type === 'object' && typeof segment === 'string')
      node = (def['shape'] as Record<string, z.ZodType>)[segment];
    else if (def.type === 'record') node = def['valueType'] as z.ZodType;
    else if (def.type === 'array') node = def['element'] as z.ZodType;
    else return undefined;
    if (node === undefined) return undefined;
    node = unwrap(node);
  }
  const def = defOf(node);
  return def.type === 'object' ? Object.keys(def['shape'] as Record<string, z.ZodType>) : undefined;
}
