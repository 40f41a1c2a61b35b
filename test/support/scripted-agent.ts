import { type Agent, createAgent } from '@cw/core';
import { builtinPluginDescriptors, DEFAULT_ROUTE_ID } from './cw-fixture.js';
import type { ScriptedModels } from './scripted-model.js';

/** The Agent API as cw runs it: the built-in plugins, on `home` (a scripted model's), working in `ws`. */
export async function scriptedAgent(models: ScriptedModels, home: string, ws: string): Promise<Agent> {
  return createAgent({
    home,
    cwd: ws,
    env: { ...process.env, ...models.envFor(home) },
    plugins: await builtinPluginDescriptors(),
    defaultRouteId: DEFAULT_ROUTE_ID,
  });
}
