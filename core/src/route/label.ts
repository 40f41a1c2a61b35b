import { z } from 'zod';

// Dialects and route shapes are labels that plugins declare, not a closed list in the core: a third
// party adds a route of a new shape, or a new dialect, without a core release. A dialect id is usable
// once some loaded plugin taps buildBody for it; resolution checks that.
const LABEL = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** A kebab-case label schema, for dialect ids, route shapes and schema-dialect names. */
export const labelSchema = z.string().max(48).regex(LABEL, 'must be a kebab-case label');
