import type { CwConfig } from '../config/cw-config.js';
import type { CapabilityRow } from '../route/capability-row.js';

// Names that hold credentials by convention, removed even when no route names them: a model must not
// be able to read a key through a tool, whichever route it was meant for.
const CREDENTIAL_NAME = /(?:^|_)(?:API_?KEY|ACCESS_?KEY|SECRET|TOKEN|PASSWORD|CREDENTIALS?)(?:_|$)/i;

/**
 * The environment tool subprocesses run with: the user's own, less every variable a configured route
 * reads its key from, and less anything named like a credential. The loop hands this, not
 * process.env, to every tool.
 */
export function toolEnvironment(
  env: NodeJS.ProcessEnv,
  rows: readonly Pick<CapabilityRow, 'auth'>[],
  config: Pick<CwConfig, 'routes'>,
): Record<string, string> {
  const keyVariables = new Set<string>();
  for (const row of rows) if (row.auth.api_key_env !== null) keyVariables.add(row.auth.api_key_env);
  for (const route of Object.values(config.routes))
    if (route.api_key_env !== undefined) keyVariables.add(route.api_key_env);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || keyVariables.has(name) || CREDENTIAL_NAME.test(name)) continue;
    out[name] = value;
  }
  return out;
}
