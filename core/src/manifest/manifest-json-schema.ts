import { zod } from '../validation/lazy-zod.js';
import type { ReasonTable } from '../turn/reason-table.js';
import { requestManifestSchema } from './manifest-schema.js';

/**
 * The JSON Schema (draft 2020-12) of the manifest, generated from the zod schema: the published
 * contract, over the built-in reasons (every plugin's `<package>:<label>` is accepted besides).
 */
export function manifestJsonSchema(reasons: ReasonTable): Record<string, unknown> {
  return zod().toJSONSchema(requestManifestSchema(reasons), { io: 'output', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
}

/** The exact text of docs/manifest.schema.json: 2-space indent and a final newline. */
export function manifestJsonSchemaText(reasons: ReasonTable): string {
  return `${JSON.stringify(manifestJsonSchema(reasons), null, 2)}\n`;
}
