import type { JsonSchema } from '../tool-definition.js';
import type { ToolSchemaRules } from '../tool-schema-rules.js';
import type { RelaxationCode } from './projection-codes.js';

/** A tool while it is being projected: the two things a rule may rewrite. */
export interface ToolDraft {
  readonly description: string;
  readonly parameters: JsonSchema;
}

/**
 * One relaxation: a rewrite that keeps the tool's meaning and moves it into the route's subset.
 * A rule reads only the route's rules (never a provider name), is pure, and returns the very same
 * draft object when it has nothing to do, which is how the engine knows whether it fired.
 */
export interface ProjectionRule {
  readonly code: RelaxationCode;
  apply(draft: ToolDraft, rules: ToolSchemaRules): ToolDraft;
}
