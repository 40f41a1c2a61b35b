import { CoreHooks } from '../hooks.js';
import { capabilityRowSchema, type CapabilityRow, type CapabilityRowInput } from '../route/capability-row.js';
import { PLUGIN_API_VERSION, type PluginApi } from './plugin-api.js';

/** Why a plugin, or one of its rows, did not load. */
export type PluginProblemCode =
  | 'missing-cw-field'
  | 'api-version-mismatch'
  | 'import-failed'
  | 'no-register-export'
  | 'register-threw'
  | 'invalid-row'
  | 'duplicate-route';

/** A load problem, kept as data and reported by the host; detail is raw and must be redacted before printing. */
export interface PluginProblem {
  readonly plugin: string;
  readonly code: PluginProblemCode;
  readonly detail: string;
}

/** A plugin that loaded, with what it registered. */
export interface LoadedPlugin {
  readonly name: string;
  readonly version: string;
  readonly type: 'core' | 'user' | 'link';
  readonly routeIds: readonly string[];
}

/** The hooks, the capability-row table and the load report of one cw process. */
export class PluginRegistry {
  readonly hooks = new CoreHooks();
  readonly problems: PluginProblem[] = [];
  readonly plugins: LoadedPlugin[] = [];
  readonly #rows = new Map<string, CapabilityRow>();

  /** Every registered row, in registration order. */
  get rows(): readonly CapabilityRow[] {
    return [...this.#rows.values()];
  }

  /** The row registered under a route id. */
  row(routeId: string): CapabilityRow | undefined {
    return this.#rows.get(routeId);
  }

  /** The API handed to one plugin's register function; rows it adds are attributed to it. */
  apiFor(plugin: string, routeIds: string[]): PluginApi {
    return {
      apiVersion: PLUGIN_API_VERSION,
      plugin,
      hooks: this.hooks,
      addRoute: (input: CapabilityRowInput) => {
        const parsed = capabilityRowSchema.safeParse(input);
        if (!parsed.success) {
          const first = parsed.error.issues[0];
          const where = first ? first.path.join('.') || '(row)' : '(row)';
          this.problems.push({
            plugin,
            code: 'invalid-row',
            detail: `row field ${where}: ${first?.message ?? 'invalid'}`,
          });
          return;
        }
        if (this.#rows.has(parsed.data.route_id)) {
          this.problems.push({
            plugin,
            code: 'duplicate-route',
            detail: `route ${parsed.data.route_id} is already registered`,
          });
          return;
        }
        this.#rows.set(parsed.data.route_id, { ...parsed.data, plugin });
        routeIds.push(parsed.data.route_id);
      },
    };
  }
}
