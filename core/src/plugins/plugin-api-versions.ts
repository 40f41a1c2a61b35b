import { PLUGIN_API_VERSION } from './plugin-api.js';

/**
 * One plugin API version: what its contract holds, and whether this cw still serves it. A retired
 * version says what the next one changed and the last cw release that served it (null when no
 * published release ever did), so a refusal can say both in one line (docs/plugin-authors.md, Versioning).
 */
export type PluginApiVersionEntry =
  | { readonly version: number; readonly contains: string; readonly served: true }
  | {
      readonly version: number;
      readonly contains: string;
      readonly served: false;
      readonly changed: string;
      readonly lastRelease: string | null;
    };

/**
 * Every plugin API version there has been, oldest first. A version stays served while the core can
 * hand its plugins exactly the contract they were written for; version 3 only added the turn hooks,
 * so a version 2 plugin's registrations and request hooks run unchanged.
 */
export const PLUGIN_API_VERSIONS: readonly PluginApiVersionEntry[] = [
  {
    version: 1,
    contains:
      'bodies built and read through buildBody.for, describeBody.for, decodeReply.for and readTextDelta.for taps',
    served: false,
    changed:
      'version 2 replaced the buildBody.for, describeBody.for, decodeReply.for and readTextDelta.for taps with api.addDialect and api.refineBody',
    lastRelease: null,
  },
  {
    version: 2,
    contains: 'addRoute, addDialect, refineBody, addTool and the resolveRoute and projectTools hooks',
    served: true,
  },
  // Extended, not bumped, by notice kinds and gate reasons: two api methods a version 3 plugin written
  // before them never calls, and one written for them can test for (docs/plugin-authors.md, Versioning).
  {
    version: 3,
    contains:
      'version 2 and the turn hooks (api.hooks.turn), with the notice kinds and gate reasons they report (api.addNoticeKind, api.addGateReason)',
    served: true,
  },
];

/** The plugin API versions this cw loads, oldest first. */
export const SERVED_PLUGIN_API_VERSIONS: readonly number[] = PLUGIN_API_VERSIONS.filter((entry) => entry.served).map(
  (entry) => entry.version,
);

/** A plugin API version this cw serves. */
export type ServedPluginApiVersion = 2 | typeof PLUGIN_API_VERSION;

/** Whether a declared `cw.apiVersion` is one this cw serves. */
export function isServedPluginApiVersion(declared: unknown): declared is ServedPluginApiVersion {
  return typeof declared === 'number' && SERVED_PLUGIN_API_VERSIONS.includes(declared);
}

/**
 * Why a plugin declaring `declared` cannot be served, as one line starting after the plugin's name
 * (`plugin acme <this>`); null when it is served. `label` names the plugin again where the line
 * says which release of it to use, and must already be safe to print.
 */
export function pluginApiVersionRefusal(declared: unknown, label: string): string | null {
  if (isServedPluginApiVersion(declared)) return null;
  const serves = `this cw speaks plugin API version ${PLUGIN_API_VERSION} and serves versions ${SERVED_PLUGIN_API_VERSIONS.join(' and ')}`;
  const where = '(docs/plugin-authors.md, Versioning)';
  if (typeof declared !== 'number' || !Number.isInteger(declared) || declared < 1) {
    return `declares no plugin API version cw knows (cw.apiVersion must be a whole number); ${serves}; set cw.apiVersion to the version ${label} was written for ${where}`;
  }
  const retired = PLUGIN_API_VERSIONS.find((entry) => entry.version === declared);
  if (retired !== undefined && !retired.served) {
    const release =
      retired.lastRelease === null
        ? `no published cw release serves version ${declared}`
        : `cw ${retired.lastRelease} is the last release that serves it`;
    return `declares cw.apiVersion ${declared}, but ${serves}: ${retired.changed}; ${release}; use a release of ${label} made for version ${PLUGIN_API_VERSION} ${where}`;
  }
  return `declares cw.apiVersion ${declared}, but ${serves}: version ${declared} is newer than this cw; a later cw release serves it, so upgrade cw or use a release of ${label} made for version ${PLUGIN_API_VERSION} ${where}`;
}
