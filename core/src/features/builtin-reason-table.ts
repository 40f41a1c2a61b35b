import type { CoreTurnTypes } from '../turn/core-turn-types.js';
import type { ReasonTable } from '../turn/reason-table.js';
import { TurnHooks } from '../turn/turn-hooks.js';
import { applyTurnFeatures } from './apply-turn-features.js';

let table: ReasonTable | undefined;

/**
 * The reasons cw knows with no plugin installed: the core's and its built-in features'. The published
 * manifest schema (npm run schema) and `cw preview-request diff` read manifests against it; a
 * plugin's reasons are `<package>:<label>` and accepted besides.
 */
export function builtinReasonTable(): ReasonTable {
  if (table === undefined) {
    const hooks = new TurnHooks<CoreTurnTypes>();
    applyTurnFeatures(hooks);
    table = hooks.reasons;
  }
  return table;
}
