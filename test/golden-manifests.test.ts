// Pins the manifest JSON byte for byte on every built-in route, so a refactor of the seam cannot
// change what a user is told. Regenerate only for an intended change: CW_UPDATE_GOLDEN=1 npx vitest run test/golden-manifests.test.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Entrypoint } from '@cw/core/plugin';
import { userAgent } from '../core/src/transport/user-agent.js';
import { REPO_ROOT } from './support/cw-fixture.js';
import { HISTORY_WITH_TOOL_RESULTS, previewFor, removePreviewHomes } from './support/manifest-preview.js';

const GOLDEN = join(REPO_ROOT, 'test', 'fixtures', 'golden', 'manifests.json');
const ROUTES = [
  'deepseek',
  'deepseek-beta',
  'deepseek-anthropic',
  'moonshot',
  'kimi-code-k3',
  'moonshot-k3',
  'zai',
  'xai',
  'openrouter',
  'vllm',
  'ollama',
  'sglang',
  'opencode-zen',
  'opencode-zen-chat',
  'opencode-zen-responses',
  'anthropic',
  'minimax-anthropic',
  'openmodel',
  'codex',
  'gemini',
  'ollama-native',
] as const;
const ENTRYPOINTS: readonly Entrypoint[] = ['streaming', 'blocking'];
// The User-Agent names this machine's platform and Node, and cw's version: the golden pins where it
// is listed and test/user-agent.test.ts pins its value.
const USER_AGENT_STAND_IN = 'cw/<version> (<platform> <arch>; node <version>)';

/** One scenario's config and history; the prompt is fixed. */
const SCENARIOS = {
  plain: (route: string) => ({ config: { route } }),
  'history-high': (route: string) => ({ config: { route, reasoning: 'high' }, history: HISTORY_WITH_TOOL_RESULTS }),
  'no-prompt': (route: string) => ({ config: { route }, prompt: undefined }),
} as const;

afterAll(removePreviewHomes);

async function currentManifests(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const route of ROUTES) {
    for (const entrypoint of ENTRYPOINTS) {
      for (const [name, scenario] of Object.entries(SCENARIOS)) {
        const { manifest } = await previewFor({ ...scenario(route), entrypoint });
        // The CLI's own serialization of `preview-request json`.
        out[`${route} ${entrypoint} ${name}`] = `${JSON.stringify(manifest, null, 2)}\n`.replaceAll(
          JSON.stringify(userAgent()),
          JSON.stringify(USER_AGENT_STAND_IN),
        );
      }
    }
  }
  return out;
}

describe('golden manifests', () => {
  it('every built-in route prints the same manifest JSON, byte for byte', async () => {
    const current = await currentManifests();
    if (process.env['CW_UPDATE_GOLDEN'] === '1') {
      const parsed = Object.fromEntries(
        Object.entries(current).map(([key, text]) => [key, JSON.parse(text) as unknown]),
      );
      await writeFile(GOLDEN, `${JSON.stringify(parsed, null, 2)}\n`);
    }
    // Stored parsed, so a diff of the file reads like a manifest diff; JSON.stringify restores the exact bytes.
    const golden = JSON.parse(await readFile(GOLDEN, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(current)).toEqual(Object.keys(golden));
    for (const [key, text] of Object.entries(current))
      expect(text, key).toBe(`${JSON.stringify(golden[key], null, 2)}\n`);
  });
});
