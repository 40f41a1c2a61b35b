import { SCHEMA_DIALECT_PRESETS } from '../schema-dialects.js';
import type { ToolSchemaRules } from '../tool-schema-rules.js';
import { closeObjectsForStrict } from './close-objects-for-strict.js';
import { constToEnum } from './const-to-enum.js';
import { constraintsToDescription } from './constraints-to-description.js';
import { definitionsToDefs } from './definitions-to-defs.js';
import { dropConditionalRequirements } from './drop-conditional-requirements.js';
import { dropStringPropertyNames } from './drop-string-property-names.js';
import { findViolation } from './find-violation.js';
import { flattenRootUnion } from './flatten-root-union.js';
import { inferLiteralType } from './infer-literal-type.js';
import { inlineRefs } from './inline-refs.js';
import { mergeAllOf } from './merge-all-of.js';
import { moveTypeIntoBranches } from './move-type-into-branches.js';
import { oneDescriptionPerLevel } from './one-description-per-level.js';
import { oneOfToAnyOf } from './one-of-to-any-of.js';
import type { OmissionCode, RelaxationCode } from './projection-codes.js';
import type { ProjectionRule, ToolDraft } from './projection-rule.js';
import { refsIntoRootDefs } from './refs-into-root-defs.js';
import { rootObjectType } from './root-object-type.js';
import { siblingsIntoBranches } from './siblings-into-branches.js';
import { stripAnnotations } from './strip-annotations.js';
import { tupleToPrefixItems } from './tuple-to-prefix-items.js';
import { typeListToAnyOf } from './type-list-to-any-of.js';

/**
 * The relaxation rules in the order they run. Structure first (always-true `propertyNames`,
 * references, root unions, `allOf`), then spelling (`oneOf`, `const`, literal types, tuples), then
 * placement (`type` into branches, then type lists split, including lists a parent just moved into a
 * branch), then what the route cannot carry at all (annotations, constraints), then what may sit
 * beside a union or reference and how often one level may be described (on the finished nodes, after
 * every rule that adds a union, a description or a sibling), and the strict rewrite last.
 */
export const PROJECTION_RULES: readonly ProjectionRule[] = [
  rootObjectType,
  dropStringPropertyNames,
  definitionsToDefs,
  inlineRefs,
  refsIntoRootDefs,
  flattenRootUnion,
  dropConditionalRequirements,
  mergeAllOf,
  oneOfToAnyOf,
  constToEnum,
  inferLiteralType,
  tupleToPrefixItems,
  moveTypeIntoBranches,
  typeListToAnyOf,
  stripAnnotations,
  constraintsToDescription,
  siblingsIntoBranches,
  oneDescriptionPerLevel,
  closeObjectsForStrict,
];

/** What projection decided for one tool's schema on one route. */
export type SchemaProjection =
  | { readonly outcome: 'exact'; readonly draft: ToolDraft; readonly strict: boolean }
  | {
      readonly outcome: 'relaxed';
      readonly draft: ToolDraft;
      readonly strict: boolean;
      readonly rules: readonly RelaxationCode[];
    }
  | { readonly outcome: 'omitted'; readonly reason: OmissionCode };

/**
 * Projects one tool's description and parameters onto a route's schema rules. Pure and
 * deterministic; projecting the result again yields `exact` with the same schema.
 */
export function projectSchema(draft: ToolDraft, rules: ToolSchemaRules): SchemaProjection {
  const relaxed = relax(draft, rules);
  const violation = findViolation(relaxed.draft.parameters, rules);
  if (violation === null) return settle(relaxed.draft, relaxed.fired, rules.strict_default);
  if (rules.strict_default && rules.strict_fallback) {
    // Sent without `strict`, the route reads the schema the loose way an OpenAI-compatible endpoint does.
    const loose: ToolSchemaRules = {
      ...SCHEMA_DIALECT_PRESETS['loose'],
      name_pattern: rules.name_pattern,
      max_tools: rules.max_tools,
    };
    const fallback = relax(draft, loose);
    const looseViolation = findViolation(fallback.draft.parameters, loose);
    if (looseViolation === null) return settle(fallback.draft, ['strict-off', ...fallback.fired], false);
    // Not sendable even without strict: the loose reason is the one that explains the omission.
    return { outcome: 'omitted', reason: looseViolation };
  }
  return { outcome: 'omitted', reason: violation };
}

function relax(draft: ToolDraft, rules: ToolSchemaRules): { draft: ToolDraft; fired: RelaxationCode[] } {
  let current = draft;
  const fired: RelaxationCode[] = [];
  for (const rule of PROJECTION_RULES) {
    const next = rule.apply(current, rules);
    if (next !== current) {
      fired.push(rule.code);
      current = next;
    }
  }
  return { draft: current, fired };
}

function settle(draft: ToolDraft, fired: readonly RelaxationCode[], strict: boolean): SchemaProjection {
  return fired.length === 0 ? { outcome: 'exact', draft, strict } : { outcome: 'relaxed', draft, strict, rules: fired };
}
