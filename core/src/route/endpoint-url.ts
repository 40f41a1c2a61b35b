import type { Entrypoint } from '../body/wire-body.js';
import type { CapabilityRow } from './capability-row.js';
import { MODEL_PLACEHOLDER } from './endpoint-path.js';

/** What a request adds to a route's endpoint: the model it names and the entry point it goes out on. */
export interface EndpointTarget {
  readonly wireModel: string;
  readonly entrypoint: Entrypoint;
}

/**
 * The full POST URL of a route: its base URL without trailing slashes, then its path — the streaming
 * path on the streaming entry point when the row has one — with `{model}` replaced by the wire model,
 * percent-encoded so a model id can never add a path segment or a query. Without a target, the path
 * as the row writes it (what `cw routes` fingerprints). Never printed.
 */
export function endpointUrl(row: Pick<CapabilityRow, 'endpoint'>, target?: EndpointTarget): string {
  const { base_url: base, path, streaming_path: streamingPath } = row.endpoint;
  const template = target?.entrypoint === 'streaming' && streamingPath !== null ? streamingPath : path;
  const filled =
    target === undefined || !template.includes(MODEL_PLACEHOLDER)
      ? template
      : template.split(MODEL_PLACEHOLDER).join(encodeURIComponent(target.wireModel));
  return withoutTrailingSlashes(base) + filled;
}

// A loop rather than a regular expression: every request builds its URL, and a regular expression's
// compiled code does not outlive a full garbage collection (docs/performance.md).
function withoutTrailingSlashes(base: string): string {
  let end = base.length;
  while (end > 0 && base.charCodeAt(end - 1) === 47) end -= 1;
  return end === base.length ? base : base.slice(0, end);
}
