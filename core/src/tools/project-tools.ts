import type { ReconciledToolChoice, WireToolSpec } from '../body/wire-body.js';
import type { CoreHooks } from '../hooks.js';
import { safeIdentifier } from '../redaction/index.js';
import type { CapabilityRow } from '../route/capability-row.js';
import type { OmissionCode } from './projection/projection-codes.js';
import { projectSchema } from './projection/project-schema.js';
import { cachedProjection } from './projection-cache.js';
import type { ToolSchemaRules } from './tool-schema-rules.js';
import type { ToolDefinition } from './tool-definition.js';
import { MAX_LISTED_TOOLS } from './max-listed-tools.js';
import type {
  ProjectionContext,
  SentToolChoice,
  ToolOutcome,
  ToolProjection,
  ToolProjectionWarning,
} from './tool-projection-types.js';

/** A projection with nothing in it: the initial value of the projectTools waterfall. */
export const EMPTY_PROJECTION: ToolProjection = {
  wireTools: [],
  toolChoice: null,
  outcomes: [],
  deferred: [],
  deferredWireTools: [],
  warning: null,
};

/** A tool_choice this route cannot honour; sending it would fail upstream or do something else. */
export class ToolChoiceError extends Error {
  override readonly name = 'ToolChoiceError';
}

/**
 * The core's projection tap. It runs first; plugins may refine its result in later taps. Its result is
 * kept per process and sealed (tools/projection-cache.ts): a tap builds a new value, never edits it.
 */
export function tapProjectionEngine(hooks: CoreHooks): void {
  hooks.projectTools.tap({ name: 'cw:projection-engine', stage: -100 }, (_seed, context) =>
    cachedProjection(context, projectTools),
  );
}

/**
 * Projects the canonical catalog onto one route's rules: per tool exact, relaxed (naming each rule
 * that fired) or omitted (naming the first route rule it breaks). One tool never fails the request;
 * only a tool_choice the route cannot honour does. Deterministic; never mutates the catalog.
 */
export function projectTools(context: ProjectionContext): ToolProjection {
  const rules = context.row.tool_schema;
  const names = new RegExp(rules.name_pattern);
  const seen = new Set<string>();
  const active = context.tools.map((tool) => projectTool(tool, rules, names, seen));
  let sent = 0;
  const limited = active.map((projected) => {
    if (projected.spec === null) return projected;
    if (rules.max_tools !== null && sent >= rules.max_tools)
      return omitted(projected.outcome.name, 'tool-limit-exceeded');
    sent += 1;
    return projected;
  });
  const deferred = (context.deferredTools ?? []).map((tool) => projectTool(tool, rules, names, seen));
  const outcomes = limited.map((projected) => projected.outcome);
  const sendable = limited.flatMap((projected) => (projected.spec === null ? [] : [projected.spec]));
  const choice = reconcileToolChoice(context, sendable, outcomes);
  const wireTools = choice.dropTools ? [] : sendable;
  return {
    wireTools,
    toolChoice: choice.toolChoice,
    outcomes,
    deferred: deferred.map((projected) => projected.outcome),
    deferredWireTools: deferred.flatMap((projected) => (projected.spec === null ? [] : [projected.spec])),
    warning: projectionWarning(context.row, outcomes, choice.change),
  };
}

interface ProjectedTool {
  readonly outcome: ToolOutcome;
  readonly spec: WireToolSpec | null;
}

function omitted(name: string, reason: OmissionCode): ProjectedTool {
  return { outcome: { name, outcome: 'omitted', reason }, spec: null };
}

function projectTool(tool: ToolDefinition, rules: ToolSchemaRules, names: RegExp, seen: Set<string>): ProjectedTool {
  if (!names.test(tool.name)) return omitted(tool.name, 'name-not-accepted');
  if (seen.has(tool.name)) return omitted(tool.name, 'duplicate-name');
  seen.add(tool.name);
  const result = projectSchema({ description: tool.description, parameters: tool.input_schema }, rules);
  switch (result.outcome) {
    case 'omitted':
      return omitted(tool.name, result.reason);
    case 'exact':
    case 'relaxed': {
      const spec: WireToolSpec = {
        name: tool.name,
        description: result.draft.description,
        parameters: result.draft.parameters,
        strict: result.strict,
      };
      const outcome: ToolOutcome =
        result.outcome === 'exact'
          ? { name: tool.name, outcome: 'exact' }
          : { name: tool.name, outcome: 'relaxed', rules: result.rules };
      return { outcome, spec };
    }
    default: {
      const unreachable: never = result;
      return unreachable;
    }
  }
}

/** tool_choice after the route has had its say, and what changed on the way. */
export interface ToolChoiceResolution {
  readonly toolChoice: ReconciledToolChoice;
  /** The route turns this choice into "no tools at all" (how `none` is kept where it cannot be sent). */
  readonly dropTools: boolean;
  readonly change: { readonly requested: 'none' | 'required' | 'named'; readonly sent: SentToolChoice } | null;
}

/** Applies the route's accepted tool_choice forms, fallbacks and reasoning conflicts to the logical choice. */
export function reconcileToolChoice(
  context: ProjectionContext,
  wireTools: readonly WireToolSpec[],
  outcomes: readonly ToolOutcome[],
): ToolChoiceResolution {
  const choice = context.toolChoice;
  if (typeof choice === 'object') {
    const outcome = outcomes.find((entry) => entry.name === choice.name);
    if (!outcome)
      throw new ToolChoiceError(
        'tool_choice names a tool that is not in the active catalog; name an active tool or use auto',
      );
    if (outcome.outcome === 'omitted') {
      throw new ToolChoiceError(
        `tool_choice names a tool this route cannot be sent (${outcome.reason}); name another tool or use auto`,
      );
    }
  }
  const unchanged = { dropTools: false, change: null };
  if (wireTools.length === 0) return { toolChoice: null, ...unchanged };
  const form = typeof choice === 'object' ? 'named' : choice;
  const changed = (
    toolChoice: ReconciledToolChoice,
    sent: SentToolChoice,
    dropTools = false,
  ): ToolChoiceResolution => ({
    toolChoice,
    dropTools,
    change: form === 'auto' ? null : { requested: form, sent },
  });
  const reasoning = context.row.reasoning;
  if (context.reasoningActive && reasoning) {
    if ((form === 'required' || form === 'named') && reasoning.forbids_forced_tool_choice) {
      throw new ToolChoiceError(
        'this route refuses a forced tool_choice while reasoning is on; set reasoning to off or use auto',
      );
    }
    if (reasoning.omits_tool_choice) {
      // The route refuses tool_choice while thinking; auto is its default, and none is kept by sending no tools.
      return form === 'none'
        ? changed(null, 'tools-dropped', true)
        : form === 'auto'
          ? { toolChoice: null, ...unchanged }
          : changed(null, 'omitted');
    }
  }
  if (context.row.tool_choice.accepted.includes(form)) return { toolChoice: choice, ...unchanged };
  const fallback = context.row.tool_choice.fallback[form] ?? 'omit';
  switch (fallback) {
    case 'omit':
      return form === 'auto' ? { toolChoice: null, ...unchanged } : changed(null, 'omitted');
    case 'drop-tools':
      return changed(null, 'tools-dropped', true);
    case 'auto':
    case 'none':
    case 'required':
      return changed(fallback, fallback);
    default: {
      const unreachable: never = fallback;
      return unreachable;
    }
  }
}

function projectionWarning(
  row: CapabilityRow,
  outcomes: readonly ToolOutcome[],
  change: ToolChoiceResolution['change'],
): ToolProjectionWarning | null {
  const left = outcomes.flatMap((entry) =>
    entry.outcome === 'omitted' ? [{ name: safeIdentifier(entry.name), reason: entry.reason }] : [],
  );
  if (left.length === 0 && change === null) return null;
  const listed = left.slice(0, MAX_LISTED_TOOLS);
  const more = left.length - listed.length;
  const parts: string[] = [];
  if (left.length > 0) {
    const names = listed.map((entry) => `${entry.name} (${entry.reason})`).join(', ');
    const noun = left.length === 1 ? 'tool' : 'tools';
    parts.push(
      `${left.length} ${noun} cannot be sent on route ${safeIdentifier(row.route_id)} and ${left.length === 1 ? 'was' : 'were'} left off: ${names}${more > 0 ? `, and ${more} more` : ''}`,
    );
  }
  if (change !== null) parts.push(`tool_choice ${change.requested} was sent as ${change.sent}`);
  return {
    code: 'tool-projection-degraded',
    omitted: listed,
    omitted_count: left.length,
    more,
    tool_choice: change,
    message: parts.join('; '),
  };
}
