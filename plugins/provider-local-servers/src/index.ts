import type { PluginApi } from '@cw/core/plugin';
import { LOCAL_SERVER_ROWS } from './local-servers-capability-rows.js';

/** Registers the vLLM, Ollama and SGLang routes. */
export function register(api: PluginApi): void {
  for (const row of LOCAL_SERVER_ROWS) api.addRoute(row);
}
