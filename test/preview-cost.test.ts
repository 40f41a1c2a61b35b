// The input cost estimate of `cw preview-request json` (docs/preview-request.md, "Input cost
// estimate"): exact arithmetic on the manifest's own token estimate at the row's published input
// price, with its provenance, or a typed reason; checked against docs/manifest.schema.json.
import { describe, expect, it } from 'vitest';
import { type RequestManifest, safePhrase } from '@cw/core';
import { useCwHomes } from './support/cw-fixture.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { runCwChild } from './support/spawn-cw.js';

const homes = useCwHomes();

type ExactBody = Extract<RequestManifest['body'], { exact: unknown }>['exact'];

/** Previews `prompt` on a home with `config`; the manifest's exact body. */
async function previewBody(config: Record<string, unknown>): Promise<ExactBody> {
  const home = await homes(config);
  const run = await runCwChild(['preview-request', 'json', '--prompt', 'what does this repository do?'], {
    CW_HOME: home,
  });
  expect(run.code, run.stderr).toBe(0);
  expectValidManifest(run.stdout);
  const manifest = JSON.parse(run.stdout) as RequestManifest;
  if (!('exact' in manifest.body)) throw new Error(`no exact body: ${JSON.stringify(manifest.body)}`);
  return manifest.body.exact;
}

describe('preview estimates the input cost', () => {
  it('prices the conservative token estimate at the model input price, with where the price came from', async () => {
    const body = await previewBody({ route: 'anthropic', model: 'claude-opus-4-8' });
    const tokens = body.estimates.total_conservative;
    expect(body.input_cost_estimate).toEqual({
      exact: {
        basis: 'offline-estimate-at-input-price',
        estimated_input_tokens: tokens,
        usd_per_mtok: 5,
        // $5 per million is 5 µ$ a token: an exact integer of micro-dollars.
        usd: (tokens * 5) / 1_000_000,
        // The page's address is a URL, printed only as its fingerprint.
        price_source: safePhrase('https://platform.claude.com/docs/en/about-claude/pricing'),
        price_as_of: '2026-12-06',
      },
    });
  });

  it('finds an alias price through the model it stands for, rounding half up to the micro-dollar', async () => {
    const body = await previewBody({ route: 'deepseek', model: 'deepseek-chat' });
    const tokens = body.estimates.total_conservative;
    // $0.14 per million: tokens × 140,000 picodollars, rounded half up to whole micro-dollars.
    const micros = Math.floor((tokens * 140_000 + 500_000) / 1_000_000);
    expect(body.input_cost_estimate).toMatchObject({ exact: { usd_per_mtok: 0.14, usd: micros / 1_000_000 } });
  });

  it('says why when there is no price: a model without one, a local server', async () => {
    const unpriced = await previewBody({ route: 'anthropic', model: 'claude-sonnet-5' });
    expect(unpriced.input_cost_estimate).toEqual({ unavailable: { reason: 'no-published-price', detail: null } });
    const local = await previewBody({ route: 'vllm' });
    expect(local.input_cost_estimate).toEqual({ unavailable: { reason: 'route-not-metered', detail: null } });
  });
});
