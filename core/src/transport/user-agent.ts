import { coreVersion } from '../core-version.js';

/** The product name every request cw sends starts its User-Agent with. */
export const USER_AGENT_PRODUCT = 'cw';

// Each part is checked against its own shape; anything else is left out, never printed or sent raw.
// The bounds keep the whole value within a manifest label's 80 characters.
const VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}(?:-[0-9A-Za-z.-]{1,12})?$/;
const PLATFORM_WORD = /^[a-z0-9_]{1,12}$/;
const NODE_VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}$/;

let built: string | undefined;

/**
 * The User-Agent of every request cw sends, side requests included: `cw/<version> (<platform>
 * <arch>; node <version>)`. The version is @cw/core's own (the CLI is released in step with it, and
 * the core imports nothing from the CLI, so every host that embeds the core sends the same one);
 * platform and arch are Node's words for the OS and CPU (`linux x64`). Nothing that names the
 * machine or its user is in it: no host name, user name or kernel build (docs/transport.md).
 */
export function userAgent(): string {
  built ??= formatUserAgent({
    version: coreVersion(),
    platform: process.platform,
    arch: process.arch,
    node: process.versions.node,
  });
  return built;
}

/** Writes the User-Agent from its parts; a part that does not have its expected shape becomes `unknown`. */
export function formatUserAgent(parts: {
  readonly version: string | null;
  readonly platform: string;
  readonly arch: string;
  readonly node: string;
}): string {
  const version = parts.version !== null && VERSION.test(parts.version) ? parts.version : 'unknown';
  const platform = PLATFORM_WORD.test(parts.platform) ? parts.platform : 'unknown';
  const arch = PLATFORM_WORD.test(parts.arch) ? parts.arch : 'unknown';
  const node = NODE_VERSION.test(parts.node) ? parts.node : 'unknown';
  return `${USER_AGENT_PRODUCT}/${version} (${platform} ${arch}; node ${node})`;
}
