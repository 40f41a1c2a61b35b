import { lazySchema } from '../validation/lazy-zod.js';

// Dialects and route shapes are labels that plugins declare, not a closed list in the core: a third
// party adds a route of a new shape, or a new dialect, without a core release. A dialect id is usable
// once some loaded plugin taps buildBody for it; resolution checks that.
const LABEL = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const MAX_LABEL = 48;

/** Whether a text is a kebab-case label: what labelSchema accepts, checked without building a schema. */
export function isLabel(text: string): boolean {
  return text.length <= MAX_LABEL && LABEL.test(text);
}

/** A kebab-case label schema, for dialect ids, route shapes and schema-dialect names. */
export const labelSchema = lazySchema((z) => z.string().max(MAX_LABEL).regex(LABEL, 'must be a kebab-case label'));
