import type { ReconciledToolChoice, WireToolSpec } from '../body/wire-body.js';
import type { CoreHooks } from '../hooks.js';
import type { CapabilityRow } from '../route/capability-row.js';
import type { ToolDefinition } from './tool-definition.js';

/** tool_choice as the agent asks for it, before the route has a say. */
export type LogicalToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

/** What happened to one tool on this route. */
export type ToolOutcome =
  | { readonly name: string; readonly outcome: 'exact' }
  | { readonly name: string; readonly outcome: 'relaxed'; readonly rules: readonly string[] }
  | { readonly name: string; readonly outcome: 'omitted'; readonly reason: string };

/** The one projection result that preview, streaming and blocking dispatch all read. */
export interface ToolProjection {
  readonly wireTools: readonly WireToolSpec[];
  readonly toolChoice: ReconciledToolChoice;
  /** One entry per active catalog tool, in catalog order. */
  readonly outcomes: readonly ToolOutcome[];
}

/** The inputs of projection. */
export interface ProjectionContext {
  readonly row: CapabilityRow;
  /** The active catalog, in order: what a route without restrictions would receive. */
  readonly tools: readonly ToolDefinition[];
  readonly toolChoice: LogicalToolChoice;
  /** Whether the body will carry a reasoning control (some routes then refuse tool_choice). */
  readonly reasoningActive: boolean;
}

/** A named tool_choice points at a tool this route cannot be sent; sending would fail upstream. */
export class ToolChoiceError extends Error {
  override readonly name = 'ToolChoiceError';
}

/** The core's projection tap. It runs first; plugins may refine its result in later taps. */
export function tapProjectionEngine(hooks: CoreHooks): void {
  hooks.projectTools.tap({ name: 'cw:projection-engine', stage: -100 }, (_seed, context) => projectTools(context));
}

/** Projects the canonical catalog onto one route's rules. Deterministic; never mutates the catalog. */
export function projectTools(context: ProjectionContext): ToolProjection {
  const rules = context.row.tool_schema;
  const namePattern = new RegExp(rules.name_pattern);
  const outcomes: ToolOutcome[] = [];
  const wireTools: WireToolSpec[] = [];
  for (const tool of context.tools) {
    if (!namePattern.test(tool.name)) {
      outcomes.push({ name: tool.name, outcome: 'omitted', reason: 'name-not-accepted' });
      continue;
    }
    outcomes.push({ name: tool.name, outcome: 'exact' });
    wireTools.push({ name: tool.name, description: tool.description, parameters: tool.input_schema, strict: rules.strict_default });
  }
  return { wireTools, outcomes, toolChoice: reconcileToolChoice(context, wireTools, outcomes) };
}

/** Applies the route's accepted tool_choice forms to the logical choice. */
export function reconcileToolChoice(
  context: ProjectionContext,
  wireTools: readonly WireToolSpec[],
  outcomes: readonly ToolOutcome[],
): ReconciledToolChoice {
  const choice = context.toolChoice;
  if (typeof choice === 'object') {
    const outcome = outcomes.find((entry) => entry.name === choice.name);
    if (!outcome) throw new ToolChoiceError('tool_choice names a tool that is not in the active catalog');
    if (outcome.outcome === 'omitted') throw new ToolChoiceError('tool_choice names a tool this route cannot be sent');
  }
  if (wireTools.length === 0) return null;
  if (context.reasoningActive && context.row.reasoning?.omits_tool_choice) return null;
  const form = typeof choice === 'object' ? 'named' : choice;
  const accepted = context.row.tool_choice.accepted;
  if (accepted.includes(form)) return choice;
  const fallback = context.row.tool_choice.fallback[form] ?? 'omit';
  return fallback === 'omit' ? null : fallback;
}
