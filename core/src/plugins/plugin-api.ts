import type { RefineBody, RefineOptions, RouteMatch, DialectDefinition } from '../dialect/dialect-contract.js';
import type { CoreHooks } from '../hooks.js';
import type { CapabilityRowInput } from '../route/capability-row.js';
import type { ToolImplementation } from '../tools/tool-contract.js';
import type { NoticeField, NoticeValue } from '../turn/notice-kinds.js';
import type { PluginTurnHooks } from './plugin-turn-hooks.js';

/**
 * The newest plugin contract version this core speaks. Older versions it still serves are loaded
 * with the contract they were written for (plugin-api-versions.ts); version 3 added the turn hooks,
 * and later notice kinds and gate reasons (additions only: a version 3 plugin written before them runs
 * unchanged).
 */
export const PLUGIN_API_VERSION = 3;

/** Tap options as a plugin gives them; the tap name is always the plugin's own, whatever it passes. */
export type PluginTapOptions = string | { readonly name?: string; readonly stage?: number };

/** The hooks a plugin may tap. Bodies are built through `addDialect` and refined through `refineBody`. */
export interface PluginHooks {
  readonly resolveRoute: {
    tap(options: PluginTapOptions, fn: Parameters<CoreHooks['resolveRoute']['tap']>[1]): void;
  };
  readonly projectTools: {
    tap(options: PluginTapOptions, fn: Parameters<CoreHooks['projectTools']['tap']>[1]): void;
  };
  /** The turn's lifecycle: gates, preparation, accounting (docs/architecture.md, "The turn's hooks"). */
  readonly turn: PluginTurnHooks;
}

/**
 * A notice kind a plugin registers (docs/plugin-authors.md, "Notices and gate reasons"). Its full
 * kind is `<package>:<name>`; the plugin sends it through `context.notify` by either.
 */
export interface PluginNoticeKind {
  /** A kebab-case label. */
  readonly name: string;
  /** One line: when the notice is sent. */
  readonly description: string;
  /** Every field the notice carries besides `kind`, with its type; all are required. */
  readonly fields: Readonly<Record<string, NoticeField>>;
  /** The one line cw prints for a notice, from its fields (already redacted; the line is redacted again). */
  readonly text: (fields: Readonly<Record<string, NoticeValue>>) => string;
}

/** A gate reason a plugin registers: its full reason is `<package>:<name>`, shown in the manifest and by cw send. */
export interface PluginGateReason {
  /** A kebab-case label. */
  readonly name: string;
  /** The words a person reads for the reason (the preview table). */
  readonly label: string;
}

/** What a plugin's `register` receives: the hooks it may tap and the ways to add routes and dialects. */
export interface PluginApi {
  readonly apiVersion: typeof PLUGIN_API_VERSION;
  /** The package name of the plugin being registered; use it as the tap name. */
  readonly plugin: string;
  readonly hooks: PluginHooks;
  /** Adds one route. An invalid row is rejected with a diagnostic; the plugin's other rows still load. */
  addRoute(row: CapabilityRowInput): void;
  /** Adds a wire dialect, checked whole: a missing part or a taken id is a load problem. */
  addDialect(dialect: DialectDefinition): void;
  /** Refines bodies of the routes `match` declares, after the core placed the reasoning control. */
  refineBody(match: RouteMatch, refine: RefineBody, options?: RefineOptions): void;
  /** Adds a tool: its definition joins the catalog and the agent loop runs its calls. Names are first come. */
  addTool(tool: ToolImplementation): void;
  /** Registers a notice kind the plugin's turn taps may send; returns its full kind, or null when invalid. */
  addNoticeKind(kind: PluginNoticeKind): string | null;
  /** Registers a reason the plugin's gate may stop a turn with; returns its full reason, or null when invalid. */
  addGateReason(reason: PluginGateReason): string | null;
}

/** The function a plugin exports as `register`. */
export type RegisterPlugin = (api: PluginApi) => void | Promise<void>;

/** The hooks of plugin API version 2: the request hooks, before the turn hooks were added. */
export type PluginHooksV2 = Omit<PluginHooks, 'turn'>;

/** What a version 2 plugin's `register` receives: the version 3 API without the turn hooks. */
export interface PluginApiV2 extends Omit<PluginApi, 'apiVersion' | 'hooks' | 'addNoticeKind' | 'addGateReason'> {
  readonly apiVersion: 2;
  readonly hooks: PluginHooksV2;
}

/** The function a version 2 plugin exports as `register`. */
export type RegisterPluginV2 = (api: PluginApiV2) => void | Promise<void>;

/** A plugin package as the host found it: oclif's plugin list, or a folder in tests. */
export interface PluginDescriptor {
  readonly name: string;
  readonly version: string;
  /** Absolute folder of the package (never printed). */
  readonly root: string;
  /** The package's `cw` field from package.json. */
  readonly cw: unknown;
  /** Whether the host ships the plugin or the user installed or linked it. */
  readonly type: 'core' | 'user' | 'link';
}
