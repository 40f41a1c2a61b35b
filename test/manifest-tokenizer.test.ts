// Offline tokenizer counts: where a route's row names a BPE encoding that ships in gpt-tokenizer, the
// manifest reports counts of the canonical JSON text per class, labelled as offline counts; routes
// without one say so with a typed reason.
import { renderManifestTable } from '../cli/src/render/render-manifest-table.js';
import { canonicalJson } from '../core/src/canonical/canonical-json.js';
import type { BodyFacts } from '../core/src/manifest/manifest-schema.js';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { previewFor, registryWithRows, removePreviewHomes, testRow } from './support/manifest-preview.js';

afterAll(removePreviewHomes);

const ROWS = [
  testRow('gpt-like', 'openai-responses', { tokenizer: 'o200k_base' }),
  testRow('older-gpt-like', 'chat-completions', { tokenizer: 'cl100k_base' }),
];

function bodyOf(manifest: { body: { exact: BodyFacts } | { unavailable: unknown } }): BodyFacts {
  if (!('exact' in manifest.body)) throw new Error('body unavailable');
  return manifest.body.exact;
}

describe('offline tokenizer counts', () => {
  it('an o200k_base route: counts per class of the canonical JSON text, beside the estimates', async () => {
    const registry = await registryWithRows(ROWS);
    const { manifest, prepared } = await previewFor({ registry, config: { route: 'gpt-like' } });
    const body = bodyOf(manifest);
    const counts = body.offline_tokenizer_counts;
    if (!('exact' in counts)) throw new Error(`no counts: ${JSON.stringify(counts)}`);
    expect(counts.exact.basis).toBe('offline-tokenizer-count');
    expect(counts.exact.encoding).toBe('o200k_base');
    // Independently: the same encoder over the canonical body text.
    expect(counts.exact.whole_body).toBe(countO200k(canonicalJson(prepared?.body)));
    expect(counts.exact.tool_schemas).toBe(countO200k(canonicalJson(prepared?.body['tools'])));
    expect(counts.exact.system).toBe(countO200k(canonicalJson(prepared?.body['instructions'])));
    expect(counts.exact.messages).toBeGreaterThan(0);
    expect(counts.exact.tool_results).toBe(0);
    // A count is never more than one token per byte, and the estimates stay beside it.
    expect(counts.exact.whole_body).toBeLessThanOrEqual(body.body_canonical_json_bytes);
    expect(body.estimates.basis).toBe('offline-estimate');
    const table = renderManifestTable(manifest, { color: false });
    expect(table).toContain('Offline tokenizer count (o200k_base, not provider-counted)');
  });

  it('a cl100k_base route', async () => {
    const registry = await registryWithRows(ROWS);
    const { manifest } = await previewFor({ registry, config: { route: 'older-gpt-like' } });
    expect(bodyOf(manifest).offline_tokenizer_counts).toMatchObject({ exact: { encoding: 'cl100k_base' } });
  });

  it('text that spells a special token is counted as text, not rejected', async () => {
    const registry = await registryWithRows(ROWS);
    const { manifest } = await previewFor({
      registry,
      config: { route: 'gpt-like' },
      prompt: 'what does <|endoftext|> mean?',
    });
    expect(bodyOf(manifest).offline_tokenizer_counts).toMatchObject({ exact: { encoding: 'o200k_base' } });
  });

  it('a route without a tokenizer says so, typed', async () => {
    const { manifest } = await previewFor();
    expect(bodyOf(manifest).offline_tokenizer_counts).toEqual({
      unavailable: { reason: 'no-offline-tokenizer-for-route', detail: null },
    });
    expect(renderManifestTable(manifest, { color: false })).toContain('no offline tokenizer ships for this route');
  });

  it('a caller that does not want counts (send) gets a typed reason and loads nothing', async () => {
    const registry = await registryWithRows(ROWS);
    const { manifest } = await previewFor({
      registry,
      config: { route: 'gpt-like' },
      options: { offlineTokenizer: false },
    });
    expect(bodyOf(manifest).offline_tokenizer_counts).toEqual({
      unavailable: { reason: 'offline-tokenizer-not-requested', detail: null },
    });
  });

  it('the row field is validated: an unknown encoding is rejected when the row registers', async () => {
    await expect(
      registryWithRows([{ ...testRow('bad', 'chat-completions'), tokenizer: 'p50k_base' as 'o200k_base' }]),
    ).rejects.toThrow(/tokenizer/);
  });
});
