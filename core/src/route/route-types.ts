import type { CwConfig } from '../config/cw-config.js';
import type { CapabilityRow } from './capability-row.js';
import type { ModelFacts } from './model-facts.js';

// What route resolution is asked and answers, as types only: the hooks declare the resolveRoute bail
// hook over them, and resolve-route.ts taps and runs that hook, so the types live apart from both.

/** What route resolution is asked: which route id, under which config, with which rows registered. */
export interface RouteQuery {
  readonly routeId: string;
  readonly config: CwConfig;
  readonly row: (routeId: string) => CapabilityRow | undefined;
}

/** A fixed route, resolved to its capability row and the model the user selected on it. */
export interface ResolvedRoute {
  /** After resolution: the row with the selected model's overrides applied (docs/capability-rows.md). */
  readonly row: CapabilityRow;
  /** The model id the user selected (or the row's default), before wire mapping. */
  readonly model: string;
  /** Whether the route id came from a plugin's row table or from the user's config. */
  readonly definedBy: 'plugin-row' | 'user-config';
  /** Set by resolveRoute: which model override applied, and which facts it set. */
  readonly modelFacts?: Pick<ModelFacts, 'match' | 'provenance'>;
}
