#!/usr/bin/env node
// Trim the published OpenAI and Anthropic OpenAPI specs down to the request-body schemas the
// wire-format tests validate against, as self-contained JSON Schema (draft 2020-12) files.
//
//   node scripts/trim-api-specs.mjs <openai-openapi.yaml> <anthropic-openapi.json> [outDir]
//
// outDir defaults to test/fixtures/specs/ in this repository. Every change made to the published
// schemas is listed in test/fixtures/specs/SOURCES.md; keep that file in step with this script.
//
// Adaptations (the minimum ajv's Ajv2020 needs to compile and validate faithfully):
//   A1  (all)    host the closure under `$defs`, rewrite `#/components/schemas/X` -> `#/$defs/X`
//                (in `$ref` and in `discriminator.mapping` values), add `$schema` and a root `$ref`.
//   A2  (OpenAI) OpenAPI 3.0 `nullable: true` -> `type: [T, "null"]` (+ `null` in `enum`), or
//                `anyOf: [<schema>, {type: "null"}]` when the schema has no `type`.
//   A3  (OpenAI) 2019-09 `$recursiveRef: "#"` -> `$ref` to the enclosing schema; `$recursiveAnchor` dropped.
//   A4  (OpenAI Responses) `oneOf` -> `anyOf` in `InputItem` only: valid input messages match both
//                `EasyInputMessage` and `Item` (-> `InputMessage`), so `oneOf` rejects them.
// Nothing else is touched: descriptions, titles, defaults, examples, `discriminator` and `x-*`
// keys stay as published (validate with ajv `strict: false`, which ignores unknown keywords).

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const COMPONENT_PREFIX = '#/components/schemas/';
const DEFS_PREFIX = '#/$defs/';
const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

const TARGETS = [
  {
    spec: 'openai',
    root: 'CreateChatCompletionRequest',
    path: '/chat/completions',
    file: 'openai-chat-completions-request.schema.json',
    oneOfToAnyOf: [],
  },
  {
    spec: 'openai',
    root: 'CreateResponse',
    path: '/responses',
    file: 'openai-responses-request.schema.json',
    oneOfToAnyOf: ['InputItem'],
  },
  {
    spec: 'anthropic',
    root: 'CreateMessageParams',
    path: '/v1/messages',
    file: 'anthropic-messages-request.schema.json',
    oneOfToAnyOf: [],
  },
];

// ---------------------------------------------------------------------------------------------
// Schema-position traversal: visit only places where JSON Schema puts subschemas, so values of
// `example`, `default`, `enum`, `const` and `x-*` extensions are never mistaken for schemas.

const SINGLE = [
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Calls visit(schema, pointer) for the schema and every subschema in it (pre-order). */
function forEachSchema(schema, pointer, visit) {
  if (!isObject(schema)) return;
  visit(schema, pointer);
  for (const key of SINGLE) if (isObject(schema[key])) forEachSchema(schema[key], `${pointer}/${key}`, visit);
  for (const key of LIST) {
    if (Array.isArray(schema[key]))
      schema[key].forEach((sub, i) => {
        forEachSchema(sub, `${pointer}/${key}/${i}`, visit);
      });
  }
  for (const key of MAP) {
    if (isObject(schema[key])) {
      for (const [name, sub] of Object.entries(schema[key])) forEachSchema(sub, `${pointer}/${key}/${name}`, visit);
    }
  }
}

/** Every `$ref` string anywhere in a value, schema position or not (used as a cross-check). */
function allRefStrings(value, out = []) {
  if (Array.isArray(value)) for (const item of value) allRefStrings(item, out);
  else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') out.push(child);
      else allRefStrings(child, out);
    }
  }
  return out;
}

function componentName(ref, where) {
  if (typeof ref !== 'string' || !ref.startsWith(COMPONENT_PREFIX)) {
    throw new Error(`${where}: unsupported reference ${JSON.stringify(ref)}`);
  }
  return decodeURIComponent(ref.slice(COMPONENT_PREFIX.length)).replaceAll('~1', '/').replaceAll('~0', '~');
}

// ---------------------------------------------------------------------------------------------
// Closure

function closure(components, root) {
  const seen = new Set();
  const stack = [root];
  while (stack.length > 0) {
    const name = stack.pop();
    if (seen.has(name)) continue;
    const schema = components[name];
    if (schema === undefined) throw new Error(`schema ${name} is referenced but not in components.schemas`);
    seen.add(name);
    let schemaRefs = 0;
    forEachSchema(schema, name, (node, pointer) => {
      if (typeof node.$ref === 'string') {
        schemaRefs += 1;
        stack.push(componentName(node.$ref, pointer));
      }
      if (isObject(node.discriminator) && isObject(node.discriminator.mapping)) {
        for (const target of Object.values(node.discriminator.mapping)) stack.push(componentName(target, pointer));
      }
    });
    const everyRef = allRefStrings(schema).length;
    if (everyRef !== schemaRefs) {
      throw new Error(`${name}: ${everyRef - schemaRefs} $ref outside a schema position; extend forEachSchema`);
    }
  }
  return [...seen].sort();
}

// ---------------------------------------------------------------------------------------------
// Adaptations

const log = [];

/** A1: rewrite component references to `$defs` references. */
function rewriteRefs(defName, schema) {
  forEachSchema(schema, defName, (node, pointer) => {
    if (typeof node.$ref === 'string') node.$ref = DEFS_PREFIX + encodeDefName(componentName(node.$ref, pointer));
    if (isObject(node.discriminator) && isObject(node.discriminator.mapping)) {
      for (const [key, target] of Object.entries(node.discriminator.mapping)) {
        node.discriminator.mapping[key] = DEFS_PREFIX + encodeDefName(componentName(target, pointer));
      }
    }
  });
}

function encodeDefName(name) {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

// Keys that describe rather than constrain: kept beside the `anyOf` when a typeless nullable is wrapped.
const ANNOTATION_KEYS = new Set([
  'title',
  'description',
  'default',
  'example',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);

/** A2: OpenAPI 3.0 `nullable` -> JSON Schema 2020-12. Returns the replacement for a schema node. */
function fixNullable(node, pointer) {
  if (!('nullable' in node) || typeof node.nullable !== 'boolean') return node;
  const { nullable, ...rest } = node;
  if (!nullable) {
    log.push(`A2 ${pointer}: dropped "nullable": false`);
    return rest;
  }
  if (typeof rest.type === 'string' || Array.isArray(rest.type)) {
    if ('const' in rest) throw new Error(`${pointer}: nullable with const is not handled`);
    const types = Array.isArray(rest.type) ? rest.type : [rest.type];
    const out = {};
    for (const [key, value] of Object.entries(rest)) {
      if (key === 'type') out.type = types.includes('null') ? types : [...types, 'null'];
      else if (key === 'enum') out.enum = value.includes(null) ? value : [...value, null];
      else out[key] = value;
    }
    log.push(
      `A2 ${pointer}: "type": ${JSON.stringify(rest.type)} + nullable -> ${JSON.stringify(out.type)}` +
        ('enum' in rest ? ' (null added to enum)' : ''),
    );
    return out;
  }
  const annotations = {};
  const constraints = {};
  for (const [key, value] of Object.entries(rest)) {
    if (ANNOTATION_KEYS.has(key) || key.startsWith('x-')) annotations[key] = value;
    else constraints[key] = value;
  }
  log.push(`A2 ${pointer}: typeless nullable -> anyOf [schema, {"type":"null"}]`);
  return { ...annotations, anyOf: [constraints, { type: 'null' }] };
}

/** Applies fixNullable bottom-up to every schema position (rebuilding the tree where it changes). */
function mapNullable(schema, pointer) {
  if (!isObject(schema)) return schema;
  const node = { ...schema };
  for (const key of SINGLE) if (isObject(node[key])) node[key] = mapNullable(node[key], `${pointer}/${key}`);
  for (const key of LIST) {
    if (Array.isArray(node[key])) node[key] = node[key].map((sub, i) => mapNullable(sub, `${pointer}/${key}/${i}`));
  }
  for (const key of MAP) {
    if (isObject(node[key])) {
      node[key] = Object.fromEntries(
        Object.entries(node[key]).map(([name, sub]) => [name, mapNullable(sub, `${pointer}/${key}/${name}`)]),
      );
    }
  }
  return fixNullable(node, pointer);
}

/** A3: `$recursiveRef: "#"` -> `$ref` to the enclosing `$defs` entry, which must carry `$recursiveAnchor`. */
function fixRecursiveRef(defName, schema) {
  let anchored = false;
  forEachSchema(schema, defName, (node, pointer) => {
    if ('$recursiveAnchor' in node) {
      if (node !== schema) throw new Error(`${pointer}: $recursiveAnchor below the top of a component`);
      anchored = node.$recursiveAnchor === true;
      delete node.$recursiveAnchor;
      log.push(`A3 ${pointer}: dropped "$recursiveAnchor"`);
    }
  });
  forEachSchema(schema, defName, (node, pointer) => {
    if (!('$recursiveRef' in node)) return;
    if (node.$recursiveRef !== '#' || !anchored) throw new Error(`${pointer}: unsupported $recursiveRef`);
    const rebuilt = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$recursiveRef') rebuilt.$ref = DEFS_PREFIX + encodeDefName(defName);
      else rebuilt[key] = value;
    }
    for (const key of Object.keys(node)) delete node[key];
    Object.assign(node, rebuilt);
    log.push(`A3 ${pointer}: "$recursiveRef": "#" -> "$ref": "${DEFS_PREFIX}${encodeDefName(defName)}"`);
  });
}

/** A4: top-level `oneOf` of a named component -> `anyOf` (same position in key order). */
function oneOfToAnyOf(defName, schema) {
  if (!Array.isArray(schema.oneOf)) throw new Error(`${defName}: expected a top-level oneOf`);
  const rebuilt = {};
  for (const [key, value] of Object.entries(schema)) rebuilt[key === 'oneOf' ? 'anyOf' : key] = value;
  for (const key of Object.keys(schema)) delete schema[key];
  Object.assign(schema, rebuilt);
  log.push(`A4 ${defName}: "oneOf" -> "anyOf"`);
}

// ---------------------------------------------------------------------------------------------
// Checks on the result: no unresolved reference, no OpenAPI-3.0 / 2019-09 leftovers.

function check(document, file) {
  forEachSchema(document, '#', (node, pointer) => {
    if (typeof node.$ref === 'string') {
      if (!node.$ref.startsWith(DEFS_PREFIX)) throw new Error(`${file} ${pointer}: stray $ref ${node.$ref}`);
      const name = node.$ref.slice(DEFS_PREFIX.length).replaceAll('~1', '/').replaceAll('~0', '~');
      if (!(name in document.$defs)) throw new Error(`${file} ${pointer}: dangling $ref ${node.$ref}`);
    }
    for (const key of ['nullable', '$recursiveRef', '$recursiveAnchor']) {
      if (key in node && typeof node[key] !== 'object') throw new Error(`${file} ${pointer}: ${key} left over`);
    }
  });
}

// ---------------------------------------------------------------------------------------------

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/** One `$defs` entry per line: small like minified JSON, but a regenerated file diffs per schema. */
function serialize(document) {
  const { $defs, ...head } = document;
  const headLines = Object.entries(head).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`);
  const defLines = Object.entries($defs).map(([key, value]) => `    ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  return `{\n${headLines.join('\n')}\n  "$defs": {\n${defLines.join(',\n')}\n  }\n}\n`;
}

function main() {
  const [openaiPath, anthropicPath, outArg] = process.argv.slice(2);
  if (!openaiPath || !anthropicPath) {
    console.error('usage: node scripts/trim-api-specs.mjs <openai-openapi.yaml> <anthropic-openapi.json> [outDir]');
    process.exit(2);
  }
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const outDir = resolve(outArg ?? join(repoRoot, 'test', 'fixtures', 'specs'));

  const openaiBytes = readFileSync(openaiPath);
  const anthropicBytes = readFileSync(anthropicPath);
  const specs = {
    openai: {
      doc: parseYaml(openaiBytes.toString('utf8'), { maxAliasCount: -1 }),
      sha: sha256(openaiBytes),
      name: 'OpenAI openapi.yaml',
    },
    anthropic: {
      doc: JSON.parse(anthropicBytes.toString('utf8')),
      sha: sha256(anthropicBytes),
      name: 'Anthropic openapi (JSON)',
    },
  };

  mkdirSync(outDir, { recursive: true });
  for (const target of TARGETS) {
    const { doc, sha, name } = specs[target.spec];
    const bodyRef = doc.paths?.[target.path]?.post?.requestBody?.content?.['application/json']?.schema?.$ref;
    if (bodyRef !== COMPONENT_PREFIX + target.root) {
      throw new Error(`${name}: POST ${target.path} body is ${JSON.stringify(bodyRef)}, expected ${target.root}`);
    }
    const components = doc.components.schemas;
    const names = closure(components, target.root);
    log.length = 0;

    const defs = {};
    for (const defName of names) {
      // structuredClone: the adaptations mutate, and schemas are shared between targets.
      let schema = structuredClone(components[defName]);
      rewriteRefs(defName, schema);
      if (target.spec === 'openai') {
        schema = mapNullable(schema, defName);
        fixRecursiveRef(defName, schema);
      }
      if (target.oneOfToAnyOf.includes(defName)) oneOfToAnyOf(defName, schema);
      defs[encodeDefName(defName)] = schema;
    }
    for (const wanted of target.oneOfToAnyOf) if (!names.includes(wanted)) throw new Error(`${wanted} not in closure`);

    const version = doc.info?.version ? `info.version ${doc.info.version}` : 'no info.version';
    const document = {
      $schema: DRAFT_2020_12,
      $comment:
        `POST ${target.path} request body (${target.root}) and the ${names.length} schemas of its $ref closure, ` +
        `from ${name} (${version}, sha256 ${sha}), trimmed by scripts/trim-api-specs.mjs; ` +
        'adaptations are listed in SOURCES.md next to this file.',
      $ref: DEFS_PREFIX + encodeDefName(target.root),
      $defs: defs,
    };
    check(document, target.file);
    const text = serialize(document);
    JSON.parse(text); // the hand-rolled layout must still be JSON
    writeFileSync(join(outDir, target.file), text);
    console.log(`${target.file}: ${target.root} + closure = ${names.length} schemas, ${Buffer.byteLength(text)} bytes`);
    for (const line of log) console.log(`  ${line}`);
  }
  console.log(`sources: ${openaiPath} sha256 ${specs.openai.sha}; ${anthropicPath} sha256 ${specs.anthropic.sha}`);
}

main();
