import { toolEnvironment } from '../../agent/tool-environment.js';
import type { CoreTurnHooks } from '../../turn/core-turn-types.js';
import { TurnBlockedError } from '../../plan/turn-blocked-error.js';
import { safeErrorText } from '../../redaction/index.js';
import { featureState, withFeatureState } from '../../snapshot/feature-state.js';
import { REQUEST_SECTIONS } from '../../turn/reason-table.js';
import { resolveTurnPrompt } from './resolve-turn-prompt.js';

/** Prompt resolution's name among the features. */
export const PROMPT_RESOLUTION_FEATURE = 'prompt-resolution';

/**
 * File mentions and the pending skill (docs/file-mentions.md, docs/skills.md) as a turn feature: the
 * typed prompt (or what the submit hooks left) becomes model-facing content, reading only, in
 * preview and send alike. Preview reports a failure in the manifest; a send stops on it before the
 * classifier or the provider is asked anything.
 */
export function applyPromptResolution(hooks: CoreTurnHooks): void {
  // After submit hooks rewrote the prompt, before auto routing classifies it.
  const stage = hooks.stages.register(PROMPT_RESOLUTION_FEATURE, 300);
  hooks.reasons.register({
    reason: 'prompt-resolution-failed',
    label: 'the prompt could not be resolved into model-facing content',
    places: REQUEST_SECTIONS,
    registeredBy: PROMPT_RESOLUTION_FEATURE,
  });
  hooks.prepareTurn.tapPromise({ name: PROMPT_RESOLUTION_FEATURE, stage }, async (draft, context) => {
    const { snapshot, prompt } = draft;
    if (typeof prompt !== 'string') return draft;
    // A send reads the resources a prompt mentions from their servers; a preview starts nothing.
    const reading =
      context.mode === 'send'
        ? {
            connect: (await import('../../mcp/connect-mcp-server.js')).connectMcpServer,
            connectOptions: {
              home: context.home,
              env: context.env,
              // The same environment as every command the model runs (docs/security.md).
              commandEnv: toolEnvironment(context.env, snapshot.registry.rows, snapshot.config),
              ...(context.signal ? { signal: context.signal } : {}),
              ...(context.sandbox ? { sandbox: context.sandbox } : {}),
              ...(snapshot.workingContext ? { workspace: snapshot.workingContext.workspace } : {}),
            },
          }
        : null;
    const resolved = await resolveTurnPrompt(snapshot, prompt, reading);
    if (resolved.error === null) return { snapshot, prompt: resolved.prompt };
    if (context.mode === 'send') throw new TurnBlockedError('prompt-resolution-failed', safeErrorText(resolved.error));
    return { snapshot: withFeatureState(snapshot, PROMPT_RESOLUTION_FEATURE, resolved.error), prompt };
  });
  hooks.gate.tap({ name: PROMPT_RESOLUTION_FEATURE, stage }, ({ snapshot, input, phase }) => {
    const error = featureState<string | null>(snapshot, PROMPT_RESOLUTION_FEATURE, null);
    if (snapshot.purpose === 'side' || input !== 'prompt' || phase !== 'plan' || error === null) return undefined;
    return { reason: 'prompt-resolution-failed', detail: safeErrorText(error) };
  });
}
