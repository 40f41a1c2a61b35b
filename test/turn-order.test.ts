// Preview and send meet a turn's gates in one order (docs/architecture.md, "The turn's hooks"): the
// gates and the preparation steps share their stages, so the goal comes first, then submit hooks,
// then prompt resolution, then auto routing, then plugins' gates. What preview reports first is the
// first thing a send would still have to do, and a send does them in that order.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequestManifest } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { builtinRegistry, FAKE_KEY } from './support/cw-fixture.js';
import { scriptedAgent } from './support/scripted-agent.js';
import { useScriptedModels } from './support/scripted-model.js';

const KEY_ENV = 'CW_TURN_ORDER_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

function reasonOf(manifest: RequestManifest): string | null {
  return 'unavailable' in manifest.route ? manifest.route.unavailable.reason : null;
}

describe('the turn order', () => {
  it('gates and preparation steps of the built-in features stand in one stage order', async () => {
    const registry = await builtinRegistry();
    const gates = registry.turn.gate.taps.map((tap) => [tap.name, tap.stage ?? 0]);
    expect(gates).toEqual([
      ['goal', 100],
      ['submit-hooks', 200],
      ['prompt-resolution', 300],
      ['auto-route', 400],
    ]);
    const prepared = registry.turn.prepareTurn.taps.map((tap) => tap.name);
    expect(prepared).toEqual(['submit-hooks', 'prompt-resolution', 'auto-route']);
    // Every preparation step stands where its gate stands.
    for (const tap of registry.turn.prepareTurn.taps)
      expect(tap.stage).toBe(registry.turn.gate.taps.find((gate) => gate.name === tap.name)?.stage);
  });

  it('preview names the hooks first; a send runs them, then stops on the mention before the classifier is asked', async () => {
    const classifier = await models.model('chat-completions', { reply: { text: 'fault' } });
    const ws = await models.folder('cw-turn-order-ws-');
    const marker = join(ws, 'hook-ran');
    const hook = {
      command: [process.execPath, '-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
    };
    const home = await models.home(classifier, {
      workspace: ws,
      route: 'auto',
      auto: { classifier_route: 'fault', candidates: ['fault'] },
      hooks: { message_submit: [hook] },
    });
    const agent = await scriptedAgent(models, home, ws);
    // Preview: hooks (200) before the failing mention (300) before the classification (400).
    expect(reasonOf((await agent.preview('see @missing.txt')).manifest)).toBe('message-submit-hooks-not-executed');
    expect(existsSync(marker)).toBe(false);
    // Send: the hook runs, the mention fails, the classifier is never asked.
    await expect(agent.run('see @missing.txt').result).rejects.toMatchObject({ reason: 'prompt-resolution-failed' });
    expect(existsSync(marker)).toBe(true);
    expect(classifier.requests).toHaveLength(0);
    // Without hooks and with a mention that resolves, the classification is what preview reports.
    const unhooked = await models.home(classifier, {
      workspace: ws,
      route: 'auto',
      auto: { classifier_route: 'fault', candidates: ['fault'] },
    });
    await writeFile(join(ws, 'present.txt'), 'here');
    const plain = await scriptedAgent(models, unhooked, ws);
    expect(reasonOf((await plain.preview('see @present.txt')).manifest)).toBe('auto-route-classification-not-executed');
  });
});
