import { beforeAll, describe, expect, it } from 'vitest';
import { checkConfigText, formatConfigProblem, previewRequest, userFactLabels, type PluginRegistry } from '@cw/core';
import { renderManifestTable } from '../cli/src/render/render-manifest-table.js';
import { BLNS, HOSTILE, leakedSecret } from './support/label-corpus.js';
import { builtinRegistry, removeHome, snapshotOf, tempHome } from './support/cw-fixture.js';

// Human output maps the user's own facts back from their fingerprints; none of a hostile corpus item
// may come back that way, nor through a config error's field or found value.
function hostileConfig(text: string): unknown {
  return {
    route: text,
    routes: {
      [text]: {
        provider: 'custom',
        dialect: 'chat-completions',
        base_url: `http://127.0.0.1:9/${text.isWellFormed() ? encodeURIComponent(text) : 'x'}/v1`,
        model: text,
      },
    },
  };
}

async function humanTable(config: unknown, registry: PluginRegistry): Promise<string> {
  const home = await tempHome(config);
  try {
    const snapshot = await snapshotOf(home, registry);
    const { manifest } = previewRequest(snapshot, 'the prompt', 'streaming');
    return renderManifestTable(manifest, { color: false, userFacts: userFactLabels(snapshot.config) });
  } catch {
    // A config this hostile may be refused at load; the refusal is checked below.
    return '';
  } finally {
    await removeHome(home);
  }
}

async function configErrors(config: unknown): Promise<string> {
  const checked = await checkConfigText(JSON.stringify(config), { dialectIds: ['chat-completions'] });
  return checked.ok ? '' : checked.problems.map(formatConfigProblem).join('\n');
}

describe("the user's own facts in human output", () => {
  let registry: PluginRegistry;
  beforeAll(async () => {
    registry = await builtinRegistry();
  });

  const items = HOSTILE.filter((item) => item.text.trim().length >= 6);

  it.each(items.map((item) => [item.category, item.text] as const))(
    '[%s] %j is never shown as written, in the table or a config error',
    async (_category, text) => {
      const outputs = [
        await humanTable(hostileConfig(text), registry),
        await configErrors(hostileConfig(text)),
        await configErrors({ reasoning: text, session: text, routes: { [text]: { provider: 'custom' } } }),
      ];
      for (const output of outputs) {
        expect(output.includes(text.trim())).toBe(false);
        expect(leakedSecret(text, output)).toBeUndefined();
        expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      }
    },
  );

  it('naughty strings as config values never put a control character into a config error', async () => {
    for (const text of BLNS) {
      const output = await configErrors({ reasoning: text, routes: { [text]: { provider: 'custom', model: text } } });
      expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
  });

  it('an ordinary configured model id and host do show in the table', async () => {
    const table = await humanTable(
      {
        route: 'local',
        routes: {
          local: {
            provider: 'custom',
            dialect: 'chat-completions',
            base_url: 'http://gpu-box:8080/v1',
            model: 'meta-llama/Llama-3.3-70B-Instruct',
          },
        },
      },
      registry,
    );
    expect(table).toContain('meta-llama/Llama-3.3-70B-Instruct');
    expect(table).toContain('http remote gpu-box:8080');
  });
});
