import { zod } from '../validation/lazy-zod.js';
import { requestManifestSchema } from './manifest-schema.js';

/** The JSON Schema (draft 2020-12) of the manifest, generated from the zod schema: the published contract. */
export function manifestJsonSchema(): Record<string, unknown> {
  return zod().toJSONSchema(requestManifestSchema(), { io: 'output', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
}

/** The exact text of docs/manifest.schema.json: 2-space indent and a final newline. */
export function manifestJsonSchemaText(): string {
  return `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`;
}
