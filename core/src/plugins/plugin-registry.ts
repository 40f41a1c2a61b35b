import { REASONING_PLACEMENT_STAGE } from '../body/place-reasoning.js';
import {
  DIALECT_PARTS,
  routeMatches,
  type DialectDefinition,
  type RefineBody,
  type RefineOptions,
  type RouteMatch,
} from '../dialect/dialect-contract.js';
import { sealJson } from '../canonical/sealed-json.js';
import { CoreHooks } from '../hooks.js';
import { turnHooksOf } from '../turn/core-turn-types.js';
import { TurnHooks } from '../turn/turn-hooks.js';
import { pluginTurnHooks } from './plugin-turn-hooks.js';
import type { ToolImplementation } from '../tools/tool-contract.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { capabilityRowSchema, type CapabilityRow, type CapabilityRowInput } from '../route/capability-row.js';
import { isLabel } from '../route/label.js';
import { checkWith } from '../validation/checked-values.js';
import {
  PLUGIN_API_VERSION,
  type PluginApi,
  type PluginGateReason,
  type PluginHooks,
  type PluginNoticeKind,
  type PluginTapOptions,
} from './plugin-api.js';
import { BUILT_IN_NAME, NAMESPACED_NAME, REQUEST_SECTIONS } from '../turn/reason-table.js';
import type { NoticeField } from '../turn/notice-kinds.js';
import { safeErrorText } from '../redaction/index.js';

/** Why a plugin, or one of its rows, dialects or refiners, did not load. */
export type PluginProblemCode =
  | 'missing-cw-field'
  | 'api-version-mismatch'
  | 'import-failed'
  | 'no-register-export'
  | 'register-threw'
  | 'invalid-row'
  | 'duplicate-route'
  | 'invalid-dialect'
  | 'duplicate-dialect'
  | 'invalid-refiner'
  | 'invalid-tool'
  | 'duplicate-tool'
  | 'invalid-notice-kind'
  | 'invalid-gate-reason'
  | 'wrote-output';

/** A load problem, kept as data and reported by the host; detail is raw and must be redacted before printing. */
export interface PluginProblem {
  readonly plugin: string;
  readonly code: PluginProblemCode;
  readonly detail: string;
}

/** What one plugin registered, collected while its `register` runs. */
export interface PluginRegistrations {
  readonly routeIds: string[];
  readonly dialectIds: string[];
  readonly toolNames: string[];
  /** One entry per refineBody call: the match it declared and its stage. */
  readonly refiners: { readonly match: RouteMatch; readonly stage: number }[];
}

/** A plugin that loaded, with what it registered. */
export interface LoadedPlugin extends PluginRegistrations {
  readonly name: string;
  readonly version: string;
  /** The plugin API version it declared and was served. */
  readonly apiVersion: number;
  readonly type: 'core' | 'user' | 'link';
}

const DEFAULT_REFINE_STAGE = 100;

/** The hooks, the capability-row and dialect tables and the load report of one cw process. */
export class PluginRegistry {
  readonly hooks = new CoreHooks();
  /** The turn's lifecycle hooks: the built-in features and plugins tap them (docs/architecture.md). */
  readonly turn = new TurnHooks();
  readonly problems: PluginProblem[] = [];
  readonly plugins: LoadedPlugin[] = [];
  readonly #rows = new Map<string, CapabilityRow>();
  readonly #dialects = new Map<string, DialectDefinition & { readonly plugin: string }>();
  readonly #withdrawn = new Set<string>();
  readonly #tools = new Map<string, ToolImplementation & { readonly plugin: string }>();
  readonly #definitions = new WeakMap<ToolImplementation, ToolDefinition>();

  /** The tool catalog the plugins registered, in registration order. */
  get toolCatalog(): readonly ToolDefinition[] {
    // Frozen, so what is derived from the list (the tool surface's key) is worked out once per list.
    const catalog = [...this.#tools.values()].map((tool) => {
      let definition = this.#definitions.get(tool);
      if (definition === undefined) {
        const plain: ToolDefinition = {
          name: tool.name,
          description: tool.description,
          input_schema: tool.inputSchema,
          origin: { kind: 'plugin', plugin: tool.plugin },
          deferred: false,
        };
        // A sealed copy, taken once: what projection and the catalog hash derive from it is then kept
        // per process (docs/performance.md). A schema that is not plain JSON is listed as registered.
        definition = sealJson(plain) ?? plain;
        this.#definitions.set(tool, definition);
      }
      return definition;
    });
    return Object.freeze(catalog);
  }

  /** The registered tool of that name, with the plugin that registered it. */
  tool(name: string): (ToolImplementation & { readonly plugin: string }) | undefined {
    return this.#tools.get(name);
  }

  /** Every registered row, in registration order. */
  get rows(): readonly CapabilityRow[] {
    return [...this.#rows.values()];
  }

  /** The row registered under a route id. */
  row(routeId: string): CapabilityRow | undefined {
    return this.#rows.get(routeId);
  }

  /** The dialect registered under an id, with the plugin that registered it. */
  dialect(id: string): (DialectDefinition & { readonly plugin: string }) | undefined {
    return this.#dialects.get(id);
  }

  /**
   * Takes back everything a plugin registered: its register function threw, so none of it counts.
   * Rows and dialects leave the tables; its taps stay in the hooks but are skipped from now on.
   */
  withdraw(plugin: string): void {
    for (const [id, row] of this.#rows) if (row.plugin === plugin) this.#rows.delete(id);
    for (const [id, dialect] of this.#dialects) if (dialect.plugin === plugin) this.#dialects.delete(id);
    for (const [name, tool] of this.#tools) if (tool.plugin === plugin) this.#tools.delete(name);
    this.#withdrawn.add(plugin);
  }

  /** Every registered dialect id, in registration order. */
  get dialectIds(): readonly string[] {
    return [...this.#dialects.keys()];
  }

  /** The API handed to one plugin's register function; what it adds is attributed to it. */
  apiFor(
    plugin: string,
    registered: PluginRegistrations = { routeIds: [], dialectIds: [], toolNames: [], refiners: [] },
  ): PluginApi {
    const turn = turnHooksOf(this);
    const problem = (code: PluginProblemCode, detail: string): void => {
      this.problems.push({ plugin, code, detail });
    };
    // Taps carry the plugin's own name, so a manifest field or a route answer can always be traced
    // to the package that produced it; no plugin can tap under another's name.
    const named = (options: PluginTapOptions) => {
      const stage = typeof options === 'object' ? options.stage : undefined;
      return stage === undefined ? { name: plugin } : { name: plugin, stage };
    };
    const hooks: PluginHooks = {
      resolveRoute: {
        tap: (options, fn) =>
          this.hooks.resolveRoute.tap(named(options), (query) => (this.#withdrawn.has(plugin) ? undefined : fn(query))),
      },
      projectTools: {
        tap: (options, fn) =>
          this.hooks.projectTools.tap(named(options), (projection, context) =>
            this.#withdrawn.has(plugin) ? projection : fn(projection, context),
          ),
      },
      turn: pluginTurnHooks(turn, plugin, () => this.#withdrawn.has(plugin)),
    };
    return {
      apiVersion: PLUGIN_API_VERSION,
      plugin,
      hooks,
      addRoute: (input: CapabilityRowInput) => {
        const parsed = checkWith('capability-row', capabilityRowSchema, input);
        if (!parsed.success) {
          const first = parsed.error.issues[0];
          const where = first ? first.path.join('.') || '(row)' : '(row)';
          // The route id is named when it is a plain id, so the one line says which row to fix.
          const id = (input as { route_id?: unknown }).route_id;
          const route = typeof id === 'string' && /^[a-z0-9][a-z0-9._-]{0,63}$/.test(id) ? ` (route ${id})` : '';
          problem('invalid-row', `row field ${where}: ${first?.message ?? 'invalid'}${route}`);
          return;
        }
        if (this.#rows.has(parsed.data.route_id)) {
          problem('duplicate-route', `route ${parsed.data.route_id} is already registered`);
          return;
        }
        this.#rows.set(parsed.data.route_id, { ...parsed.data, plugin });
        registered.routeIds.push(parsed.data.route_id);
      },
      addDialect: (definition: DialectDefinition) => {
        const invalid = dialectDefect(definition);
        if (invalid !== null) {
          problem('invalid-dialect', invalid);
          return;
        }
        if (this.#dialects.has(definition.id)) {
          problem('duplicate-dialect', `dialect ${definition.id} is already registered`);
          return;
        }
        const { id, buildBody, describeBody, createDecoder } = definition;
        this.#dialects.set(id, { id, buildBody, describeBody, createDecoder, plugin });
        registered.dialectIds.push(id);
      },
      refineBody: (match: RouteMatch, refine: RefineBody, options: RefineOptions = {}) => {
        const stage = options.stage ?? DEFAULT_REFINE_STAGE;
        const invalid = refinerDefect(match, refine, stage);
        if (invalid !== null) {
          problem('invalid-refiner', invalid);
          return;
        }
        this.hooks.buildBody.tap({ name: plugin, stage }, (body, context) =>
          !this.#withdrawn.has(plugin) && routeMatches(match, context.row) ? refine(body, context) : body,
        );
        registered.refiners.push({ match, stage });
      },
      addTool: (tool: ToolImplementation) => {
        const invalid = toolDefect(tool);
        if (invalid !== null) {
          problem('invalid-tool', invalid);
          return;
        }
        if (this.#tools.has(tool.name)) {
          problem('duplicate-tool', `tool ${tool.name} is already registered`);
          return;
        }
        const { name, description, inputSchema, readOnly, execute, summarize, commandOf, fileChange } = tool;
        this.#tools.set(name, {
          name,
          description,
          inputSchema,
          readOnly,
          execute,
          ...(summarize ? { summarize } : {}),
          ...(commandOf ? { commandOf } : {}),
          // Read only to show a diff before approval (docs/agent-loop.md); it grants nothing.
          ...(typeof fileChange === 'function' ? { fileChange } : {}),
          plugin,
        });
        registered.toolNames.push(name);
      },
      addNoticeKind: (kind: PluginNoticeKind) => {
        const full = `${plugin}:${String(kind?.name)}`;
        const invalid =
          noticeKindDefect(kind, full) ?? (turn.notices.get(full) ? `notice kind ${full} is already registered` : null);
        if (invalid !== null) {
          problem('invalid-notice-kind', invalid);
          return null;
        }
        const text = kind.text;
        turn.notices.register({
          kind: full,
          description: safeErrorText(kind.description),
          fields: kind.fields,
          // The plugin's words cross the redaction like any error; a text that throws shows the kind.
          text: (fields) => {
            try {
              return safeErrorText(String(text(fields)));
            } catch {
              return full;
            }
          },
          registeredBy: plugin,
        });
        return full;
      },
      addGateReason: (reason: PluginGateReason) => {
        const full = `${plugin}:${String(reason?.name)}`;
        const invalid =
          gateReasonDefect(reason, full) ??
          (turn.reasons.get(full) ? `gate reason ${full} is already registered` : null);
        if (invalid !== null) {
          problem('invalid-gate-reason', invalid);
          return null;
        }
        turn.reasons.register({
          reason: full,
          label: safeErrorText(reason.label),
          places: REQUEST_SECTIONS,
          registeredBy: plugin,
        });
        return full;
      },
    };
  }
}

const FIELD_TYPES: readonly NoticeField['type'][] = ['identifier', 'text', 'integer', 'number', 'boolean'];

/** What is wrong with a notice kind registration, or null. */
function noticeKindDefect(kind: PluginNoticeKind, full: string): string | null {
  if (typeof kind !== 'object' || kind === null) return 'addNoticeKind takes an object';
  if (typeof kind.name !== 'string' || !BUILT_IN_NAME.test(kind.name) || !NAMESPACED_NAME.test(full))
    return 'notice kind name must be a kebab-case label, under a lowercase package name';
  if (typeof kind.description !== 'string' || kind.description === '') return `notice kind ${full} has no description`;
  if (typeof kind.text !== 'function') return `notice kind ${full} has no text function`;
  const fields: unknown = kind.fields;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
    return `notice kind ${full} needs a fields object`;
  for (const [name, field] of Object.entries(fields as Record<string, NoticeField>)) {
    if (!/^[a-z][a-z0-9_]*$/.test(name) || name === 'kind') return `notice kind ${full} has a field named ${name}`;
    if (!FIELD_TYPES.includes(field?.type) || typeof field.description !== 'string')
      return `notice kind ${full} field ${name} needs a type (${FIELD_TYPES.join(', ')}) and a description`;
  }
  return null;
}

/** What is wrong with a gate reason registration, or null. */
function gateReasonDefect(reason: PluginGateReason, full: string): string | null {
  if (typeof reason !== 'object' || reason === null) return 'addGateReason takes an object';
  if (typeof reason.name !== 'string' || !BUILT_IN_NAME.test(reason.name) || !NAMESPACED_NAME.test(full))
    return 'gate reason name must be a kebab-case label, under a lowercase package name';
  if (typeof reason.label !== 'string' || reason.label === '') return `gate reason ${full} has no label`;
  return null;
}

/** What is wrong with a dialect definition, or null when every part is there. */
function dialectDefect(definition: DialectDefinition): string | null {
  if (typeof definition !== 'object' || definition === null) return 'addDialect takes an object';
  const id: unknown = definition.id;
  if (typeof id !== 'string' || !isLabel(id)) return 'dialect id must be a kebab-case label';
  const missing = DIALECT_PARTS.filter((part) => typeof definition[part] !== 'function');
  return missing.length === 0 ? null : `dialect ${id} has no ${missing.join(', ')} function`;
}

// The tool-name rule the strictest built-in route takes; a name outside it could never be sent.
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** What is wrong with a tool registration, or null. */
function toolDefect(tool: ToolImplementation): string | null {
  if (typeof tool !== 'object' || tool === null) return 'addTool takes an object';
  if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
    return 'tool name must be 1 to 64 letters, digits, _ or -';
  }
  if (typeof tool.description !== 'string' || tool.description === '') return `tool ${tool.name} has no description`;
  const schema: unknown = tool.inputSchema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return `tool ${tool.name} needs an inputSchema object`;
  }
  if (typeof tool.readOnly !== 'boolean') return `tool ${tool.name} must say whether it is readOnly`;
  if (typeof tool.execute !== 'function') return `tool ${tool.name} has no execute function`;
  return null;
}

/** What is wrong with a refiner registration, or null. */
function refinerDefect(match: RouteMatch, refine: RefineBody, stage: number): string | null {
  if (typeof refine !== 'function') return 'refineBody takes a function';
  const ids = match?.routeIds ?? [];
  const shapes = match?.routeShapes ?? [];
  if (!Array.isArray(ids) || !Array.isArray(shapes) || ids.length + shapes.length === 0) {
    return 'refineBody needs a match with routeIds or routeShapes';
  }
  if (!Number.isInteger(stage) || stage <= REASONING_PLACEMENT_STAGE) {
    return `refineBody stage must be an integer above ${REASONING_PLACEMENT_STAGE} (reasoning placement)`;
  }
  return null;
}
