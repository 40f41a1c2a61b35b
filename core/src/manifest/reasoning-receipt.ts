import type { JsonValue } from '../canonical/canonical-json.js';
import type { BodyLayout, ReasoningPlan, WireBody } from '../body/wire-body.js';
import type { CapabilityRow } from '../route/capability-row.js';
import { keepLayout } from '../kept-layouts.js';

/** What the finished body says about reasoning, read off the JSON rather than inferred from the request. */
export interface ReasoningReceipt {
  /** Keys (dotted paths for nested ones) that carry a reasoning control and are present on the body, in report order. */
  readonly controlKeys: readonly string[];
  readonly effort: string | null;
  /** Where the effort was read: a constant path, or the path the route's row declares. Never a key lifted from the body. */
  readonly effortSource: string | null;
  readonly budgetTokens: number | null;
  /** Where the budget was read, under the same rule as effortSource. */
  readonly budgetSource: string | null;
  readonly resolution: 'explicit' | 'resolved-from-prompt' | 'route-default' | 'not-applicable';
}

/**
 * Reads the reasoning control off the body. Where to look comes from two declared sources: the
 * dialect's reasoning layout (describeBody) and the paths the route's row declares, so routes whose
 * control lives somewhere the dialect does not know (`chat_template_kwargs.reasoning_effort`,
 * `enable_thinking`, `google.thinking_config.thinking_level`) are still reported.
 */
export function reasoningReceipt(
  body: WireBody,
  layout: BodyLayout,
  plan: ReasoningPlan | null,
  control: CapabilityRow['reasoning'],
): ReasoningReceipt {
  const read = new TopMembers(body);
  const rowPaths =
    control === null
      ? []
      : [control.key_path, ...Object.values(control.also_set).flatMap((paths) => Object.keys(paths ?? {}))];
  // A dialect may name a control by its path inside a settings object that also carries other
  // settings (an output cap beside a thinking level): only that inner object counts as the control.
  const candidates = [...layout.reasoning.controlKeys];
  for (const path of rowPaths) {
    if (candidates.some((key) => path === key || path.startsWith(`${key}.`))) continue;
    const top = path.split('.')[0] ?? path;
    if (!candidates.includes(top)) candidates.push(top);
  }
  const controlKeys = candidates.filter((key) => read.valueAt(key) !== undefined);

  let effort: string | null = null;
  let effortSource: string | null = null;
  for (const path of layout.reasoning.effortPaths) {
    const value = read.valueAt(path);
    if (typeof value === 'string') {
      effort = value;
      effortSource = path;
      break;
    }
  }
  let budgetTokens: number | null = null;
  let budgetSource: string | null = null;
  for (const path of layout.reasoning.budgetPaths) {
    const value = read.valueAt(path);
    if (typeof value === 'number') {
      budgetTokens = value;
      budgetSource = path;
      break;
    }
  }
  if (control !== null) {
    const declared = read.valueAt(control.key_path);
    if (effort === null && control.value_kind === 'effort' && typeof declared === 'string') {
      effort = declared;
      effortSource = control.key_path;
    }
    if (budgetTokens === null && control.value_kind === 'budget' && typeof declared === 'number') {
      budgetTokens = declared;
      budgetSource = control.key_path;
    }
  }

  const disclosureOnly = new Set(layout.reasoning.disclosureKeys);
  const controls = controlKeys.some((key) => !disclosureOnly.has(key));
  const resolution = !controls
    ? 'not-applicable'
    : plan?.origin === 'explicit'
      ? 'explicit'
      : plan?.origin === 'auto'
        ? 'resolved-from-prompt'
        : 'route-default';
  return { controlKeys, effort, effortSource, budgetTokens, budgetSource, resolution };
}

/** The value at a dotted path of a JSON object, or undefined when any step is missing. Own members only. */
export function valueAt(body: WireBody, path: string): JsonValue | undefined {
  // Step by step along the path rather than splitting it: a receipt reads about twenty paths, most of
  // them absent at the first step, and a split would allocate a list for each.
  return descend(body, path, 0);
}

/**
 * The paths of one body, its own top-level keys listed once: a receipt reads about twenty paths under
 * a handful of keys, most of them absent, and looking an absent key up on the object (through its
 * prototypes) is what costs, most of all after a collection. Gives exactly what valueAt gives.
 */
class TopMembers {
  // Declared only, as Sha256Pieces' fields: set once, in the constructor.
  declare private readonly body: WireBody;
  declare private readonly own: readonly string[];

  constructor(body: WireBody) {
    this.body = body;
    this.own = isObject(body) ? Object.keys(body) : [];
  }

  valueAt(path: string): JsonValue | undefined {
    const dot = path.indexOf('.');
    const key = dot === -1 ? path : path.slice(0, dot);
    if (!this.own.includes(key)) return undefined;
    const node = (this.body as { [key: string]: JsonValue })[key];
    return dot === -1 ? node : descend(node, path, dot + 1);
  }
}

// One receipt's reader lives as long as the module, so the next one is built through a layout that is still there.
keepLayout(new TopMembers({}));

/** The value at the rest of a dotted path (from `start`) below `node`, as valueAt reads it. */
function descend(node: JsonValue | undefined, path: string, start: number): JsonValue | undefined {
  let at = start;
  for (;;) {
    if (!isObject(node)) return undefined;
    const dot = path.indexOf('.', at);
    const key = dot === -1 ? (at === 0 ? path : path.slice(at)) : path.slice(at, dot);
    // Own members only: a path naming `constructor` or `toString` finds nothing on a JSON body.
    if (!Object.hasOwn(node, key)) return undefined;
    node = node[key];
    if (dot === -1) return node;
    at = dot + 1;
  }
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
