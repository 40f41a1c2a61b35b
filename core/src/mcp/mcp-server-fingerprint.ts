import { canonicalJson } from '../canonical/canonical-json.js';
import { sha256Hex } from '../canonical/sha256.js';
import type { McpServerConfig } from '../config/cw-config.js';

/**
 * What a snapshot entry is tied to: the lowercase hex SHA-256 of the RFC 8785 canonical JSON of a
 * server's config entry as written, `${env:NAME}` references unexpanded (so a changed secret does not
 * make the snapshot stale, and no secret value is ever hashed). The entry is taken after validation,
 * defaults filled in, so `"args": []` written out or left to its default gives the same fingerprint.
 * `disabled` is left out: it says whether the server takes part, not what the server is, so turning a
 * server off and on again keeps its snapshot fresh.
 */
export function mcpServerFingerprint(server: McpServerConfig): string {
  const { disabled: _disabled, ...entry } = server;
  return sha256Hex(canonicalJson(entry));
}
