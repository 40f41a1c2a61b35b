import type { JsonValue } from '../canonical/canonical-json.js';
import { safeIdentifier } from '../redaction/index.js';
import type { ReasonTable } from '../turn/reason-table.js';
import { MANIFEST_SCHEMA_VERSION, requestManifestSchema, type RequestManifest } from './manifest-schema.js';

/** Version of the diff's own JSON form; bumped only on a rename or removal. */
export const MANIFEST_DIFF_VERSION = 1;

/** One field that differs. A side is absent when that manifest has no such field (e.g. its section is unavailable). */
export interface ManifestDifference {
  readonly path: string;
  readonly a?: JsonValue;
  readonly b?: JsonValue;
}

/** A group of related fields, read together when comparing two routes, with what differs in it. */
export interface DiffGroup {
  readonly id: DiffGroupId;
  readonly title: string;
  /** The fields this group reads; `other` reads every field no other group claims. */
  readonly fields: readonly string[];
  readonly differences: readonly ManifestDifference[];
  /** What the difference (or its absence) means, derived only from the two manifests. */
  readonly note: string | null;
}

/** The comparison of two saved manifests. */
export interface ManifestDiff {
  readonly diff_version: typeof MANIFEST_DIFF_VERSION;
  /** True when no field differs at all. */
  readonly identical: boolean;
  readonly groups: readonly DiffGroup[];
}

/** Group ids, in the order they are printed. */
export type DiffGroupId =
  | 'availability'
  | 'dialect'
  | 'wire-model'
  | 'tools'
  | 'fixed-overhead'
  | 'reasoning'
  | 'whole-body'
  | 'components'
  | 'billing'
  | 'other';

interface GroupSpec {
  readonly id: Exclude<DiffGroupId, 'other'>;
  readonly title: string;
  readonly fields: readonly string[];
  readonly note: (a: Leaves, b: Leaves, differs: boolean) => string | null;
}

type Leaves = ReadonlyMap<string, JsonValue>;

// The groups in reading order (docs/preview-request.md, "Comparing routes"): first whether each section
// is exact at all, then the fields most likely to explain why two requests differ.
const GROUPS: readonly GroupSpec[] = [
  {
    id: 'availability',
    title: 'Section availability',
    fields: ['route.unavailable', 'tools.unavailable', 'body.unavailable'],
    note: (_a, _b, differs) =>
      differs ? 'A section exact on one side only: compare its fields only where both are exact.' : null,
  },
  {
    id: 'dialect',
    title: 'Dialect and route shape',
    fields: ['route.dialect', 'route.route_shape'],
    note: (a, b) =>
      a.get('route.dialect') !== undefined &&
      b.get('route.dialect') !== undefined &&
      a.get('route.dialect') !== b.get('route.dialect')
        ? 'Different dialects send structurally different requests, not the same request to another host.'
        : null,
  },
  {
    id: 'wire-model',
    title: 'Wire model (the id that goes on the wire)',
    fields: ['route.wire_model'],
    note: () => null,
  },
  {
    id: 'tools',
    title: 'Tools',
    fields: ['tools.active_tool_count', 'body.tool_schema_wire_sha256', 'tools.active_tool_catalog_sha256'],
    note: (a, b) => {
      const wireA = a.get('body.tool_schema_wire_sha256');
      const wireB = b.get('body.tool_schema_wire_sha256');
      if (wireA === undefined || wireB === undefined) return null;
      if (wireA === wireB) return 'Identical wire tool hashes: identical tool bytes, whatever the labels say.';
      if (a.get('tools.active_tool_catalog_sha256') === b.get('tools.active_tool_catalog_sha256')) {
        return 'Same logical catalog, different wire bytes: each route shapes the schemas its own way.';
      }
      return null;
    },
  },
  {
    id: 'fixed-overhead',
    title: 'Fixed overhead against the window',
    fields: ['body.estimates.tool_schemas', 'route.context_limit_tokens'],
    note: () => null,
  },
  {
    id: 'reasoning',
    title: 'Reasoning',
    fields: [
      'body.reasoning_wire_control_keys',
      'body.reasoning_wire_effort',
      'body.reasoning_wire_effort_source',
      'body.reasoning_wire_budget_tokens',
      'body.reasoning_wire_budget_source',
      'body.reasoning_resolution',
    ],
    note: (a, b) =>
      bodiesExact(a, b) &&
      (a.get('body.reasoning_wire_effort') !== b.get('body.reasoning_wire_effort') ||
        a.get('body.reasoning_wire_budget_tokens') !== b.get('body.reasoning_wire_budget_tokens'))
        ? 'Different effective reasoning: the two routes are not asked to think the same way, so they are not comparable.'
        : null,
  },
  {
    id: 'whole-body',
    title: 'Whole request',
    fields: ['body.body_sha256'],
    note: (a, b) => {
      const hashA = a.get('body.body_sha256');
      const hashB = b.get('body.body_sha256');
      if (hashA === undefined || hashB === undefined) return null;
      return hashA === hashB
        ? 'Same body hash: nothing about the outbound bytes changed.'
        : 'The outbound bytes differ.';
    },
  },
  {
    id: 'components',
    title: 'Local system + tools component',
    fields: ['body.local_system_tools_component_sha256'],
    note: (_a, _b, differs) =>
      differs ? 'A local measurement only: it does not prove provider cache reuse or invalidation.' : null,
  },
  {
    id: 'billing',
    title: 'Billing',
    fields: ['route.billing'],
    note: (a, b) => {
      const kindA = a.get('route.billing.kind');
      const kindB = b.get('route.billing.kind');
      if (kindA === 'unknown' || kindB === 'unknown')
        return 'An unknown billing basis means cost comparison fails closed.';
      if (kindA !== undefined && kindB !== undefined && kindA !== kindB)
        return 'Different billing bases are not cost-comparable.';
      return null;
    },
  },
];

/** A manifest file could not be read as a cw manifest; the message names the side (A or B), never file content. */
export class ManifestInputError extends Error {
  override readonly name = 'ManifestInputError';
  readonly exitCode = 1;
}

/**
 * Parses one saved manifest. Errors name the side and, for a shape problem, a redacted field path
 * and the issue code: never the offending value or key, which may be anything. `reasons` are the
 * reasons a section may carry (the built-in table; any plugin's is accepted besides).
 */
export function parseManifestText(text: string, side: 'A' | 'B', reasons: ReasonTable): RequestManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ManifestInputError(
      `manifest ${side} is not valid JSON; save one with cw preview-request json --prompt <text>`,
    );
  }
  const version =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw)
      ? (raw as Record<string, unknown>)['schema_version']
      : undefined;
  if (version !== MANIFEST_SCHEMA_VERSION) {
    const shown =
      typeof version === 'number' && Number.isSafeInteger(version)
        ? `schema_version ${version}`
        : 'no readable schema_version';
    throw new ManifestInputError(
      `manifest ${side} has ${shown}; this cw reads schema_version ${MANIFEST_SCHEMA_VERSION}`,
    );
  }
  const parsed = requestManifestSchema(reasons).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path =
      issue === undefined || issue.path.length === 0
        ? '(top level)'
        : issue.path.map((part) => safeIdentifier(String(part))).join('.');
    throw new ManifestInputError(
      `manifest ${side} is not a valid cw manifest (field ${path}: ${issue?.code ?? 'invalid'})`,
    );
  }
  return parsed.data;
}

/** Compares two manifests field by field, grouped in the order a person should read the differences. */
export function diffManifests(a: RequestManifest, b: RequestManifest): ManifestDiff {
  const leavesA = leaves(a);
  const leavesB = leaves(b);
  const paths = [...new Set([...leavesA.keys(), ...leavesB.keys()])];
  const differing = paths.filter((path) => !sameValue(leavesA.get(path), leavesB.get(path)));
  const claimed = new Set<string>();
  const groups: DiffGroup[] = GROUPS.map((spec) => {
    const mine = differing.filter((path) =>
      spec.fields.some((field) => path === field || path.startsWith(`${field}.`)),
    );
    for (const path of mine) claimed.add(path);
    return {
      id: spec.id,
      title: spec.title,
      fields: spec.fields,
      differences: mine.map((path) => difference(path, leavesA, leavesB)),
      note: spec.note(leavesA, leavesB, mine.length > 0),
    };
  });
  const rest = differing.filter((path) => !claimed.has(path));
  groups.push({
    id: 'other',
    title: 'Other fields',
    fields: [],
    differences: rest.map((path) => difference(path, leavesA, leavesB)),
    note: null,
  });
  return { diff_version: MANIFEST_DIFF_VERSION, identical: differing.length === 0, groups };
}

function difference(path: string, a: Leaves, b: Leaves): ManifestDifference {
  const valueA = a.get(path);
  const valueB = b.get(path);
  return { path, ...(valueA === undefined ? {} : { a: valueA }), ...(valueB === undefined ? {} : { b: valueB }) };
}

/** Flattens a manifest to dotted leaf paths; the `exact` wrapper is dropped so paths read `route.dialect`. */
function leaves(manifest: RequestManifest): Leaves {
  const out = new Map<string, JsonValue>();
  const walk = (value: JsonValue, path: string): void => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [key, child] of Object.entries(value))
        walk(child, key === 'exact' && path !== '' ? path : path === '' ? key : `${path}.${key}`);
      return;
    }
    out.set(path, value);
  };
  walk(manifest as unknown as JsonValue, '');
  return out;
}

function bodiesExact(a: Leaves, b: Leaves): boolean {
  return a.has('body.body_sha256') && b.has('body.body_sha256');
}

function sameValue(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}
