import type { CapabilityRow } from './capability-row.js';

/** The full POST URL of a route: its base URL without trailing slashes, then its path. Never printed. */
export function endpointUrl(row: Pick<CapabilityRow, 'endpoint'>): string {
  return row.endpoint.base_url.replace(/\/+$/, '') + row.endpoint.path;
}
