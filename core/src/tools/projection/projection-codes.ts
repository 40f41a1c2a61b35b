/** Codes of the relaxation rules, in the order the engine runs them. Stable: scripts match on them. */
export const RELAXATION_CODES = [
  'root-object-type',
  'drop-string-property-names',
  'definitions-to-defs',
  'inline-refs',
  'refs-into-root-defs',
  'flatten-root-union',
  'drop-conditional-requirements',
  'merge-all-of',
  'one-of-to-any-of',
  'const-to-enum',
  'infer-literal-type',
  'tuple-to-prefix-items',
  'move-type-into-branches',
  'type-list-to-any-of',
  'strip-annotations',
  'constraints-to-description',
  'siblings-into-branches',
  'one-description-per-level',
  'close-objects-for-strict',
  'strict-off',
] as const;
/** A relaxation rule code. */
export type RelaxationCode = (typeof RELAXATION_CODES)[number];

/** Why a tool was omitted: the first rule of the route it still breaks after every relaxation. Stable. */
export const OMISSION_CODES = [
  'name-not-accepted',
  'duplicate-name',
  'tool-limit-exceeded',
  'root-not-object',
  'root-combinator-not-accepted',
  'keyword-not-accepted',
  'type-beside-combinator',
  'sibling-not-accepted',
  'annotation-repeated',
  'type-list-not-accepted',
  'untyped-node',
  'ref-not-accepted',
  'ref-unresolvable',
  'ref-outside-defs',
  'tuple-items-not-accepted',
  'enum-null-not-accepted',
  'limit-depth',
  'limit-size',
  'limit-properties',
  'limit-any-of',
  'limit-enum',
  'recursive-ref',
  'strict-not-satisfiable',
] as const;
/** An omission code. */
export type OmissionCode = (typeof OMISSION_CODES)[number];
