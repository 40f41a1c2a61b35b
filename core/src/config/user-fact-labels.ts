import { fingerprint } from '../canonical/sha256.js';
import { isShowableUserHost, isShowableUserLabel } from '../redaction/safe-user-label.js';
import type { CwConfig } from './cw-config.js';

// The manifest fingerprints these values by its redaction rules (docs/preview-request.md), and an
// endpoint's host by its lowercased authority (endpointHostClass). Human output maps such a
// fingerprint back to what the user wrote, when that is showable: it is their own fact, shown to
// them (docs/security.md).
/**
 * The fingerprints of the route ids, model ids and hosts the user wrote in config, each mapped to
 * the value as written. Values that are not showable (secret-shaped, e-mail, record ids) are left out.
 */
export function userFactLabels(config: CwConfig): ReadonlyMap<string, string> {
  const labels = new Map<string, string>();
  const add = (raw: string | undefined, showable = isShowableUserLabel): void => {
    if (raw !== undefined && showable(raw)) labels.set(fingerprint(raw), raw.trim());
  };
  add(config.route);
  add(config.model);
  for (const [routeId, route] of Object.entries(config.routes)) {
    add(routeId);
    add(route.model);
    add(authorityOf(route.base_url), isShowableUserHost);
  }
  for (const routeId of Object.keys(config.route_timeouts)) add(routeId);
  return labels;
}

// Host and port only: the path, query and userinfo of a base URL are never shown.
function authorityOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    const hostname = parsed.hostname.toLowerCase();
    return parsed.port === '' ? hostname : `${hostname}:${parsed.port}`;
  } catch {
    return undefined;
  }
}
