// The published manifest contract: docs/manifest.schema.json is generated from the one zod schema and
// cannot go stale; Ajv (2020-12) and zod agree on what they reject; docs/preview-request.md explains
// every field the schema has.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { RequestManifest } from '@cw/core';
import { builtinReasonTable } from '../core/src/features/builtin-reason-table.js';
import { manifestJsonSchemaText } from '../core/src/manifest/manifest-json-schema.js';
import { requestManifestSchema } from '../core/src/manifest/manifest-schema.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cw-fixture.js';
import {
  MANIFEST_JSON_SCHEMA,
  expectValidManifest,
  sectionFieldNames,
  type SchemaNode,
} from './support/manifest-schema.js';
import { previewFor, removePreviewHomes } from './support/manifest-preview.js';

const execFileAsync = promisify(execFile);
afterAll(removePreviewHomes);

describe('docs/manifest.schema.json', () => {
  it('equals a fresh generation from the zod schema', () => {
    const checkedIn = readFileSync(new URL('../docs/manifest.schema.json', import.meta.url), 'utf8');
    expect(checkedIn).toBe(manifestJsonSchemaText(builtinReasonTable()));
  });

  it('the generation script agrees (npm run schema writes it; --check guards it)', async () => {
    const { stdout } = await execFileAsync(process.execPath, ['scripts/generate-manifest-schema.mjs', '--check'], {
      cwd: REPO_ROOT,
    });
    expect(stdout).toContain('up to date');
  });

  it('is draft 2020-12, compiles under strict Ajv, and names its version', () => {
    expect(MANIFEST_JSON_SCHEMA['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(() => new Ajv2020({ strict: true }).compile(MANIFEST_JSON_SCHEMA)).not.toThrow();
    expect(MANIFEST_JSON_SCHEMA.properties?.['schema_version']?.const).toBe(1);
  });

  it("publishes each section's own reason list, and a plugin's reasons besides", () => {
    // The built-in reasons are the registered set; a plugin's registered reason is `<package>:<label>`.
    const reasonNode = (section: string) => {
      const node = MANIFEST_JSON_SCHEMA.properties?.[section];
      const branch = node?.anyOf?.find((candidate) => candidate.properties?.['unavailable']);
      return branch?.properties?.['unavailable']?.properties?.['reason'];
    };
    const reasons = (section: string): unknown[] => [...(reasonNode(section)?.anyOf?.[0]?.enum ?? [])];
    const table = builtinReasonTable();
    expect(reasons('route')).toEqual(table.reasonsFor('route'));
    expect(reasons('tools')).toEqual(table.reasonsFor('tools'));
    expect(reasons('body')).toEqual(table.reasonsFor('body'));
    const pattern = new RegExp(String((reasonNode('body')?.anyOf?.[1] as { pattern?: string } | undefined)?.pattern));
    expect(pattern.test('cw-fixture-quota:quota-spent')).toBe(true);
    expect(pattern.test('@acme/cw-gate:over-limit')).toBe(true);
    expect(pattern.test('runtime-transforms-before-send')).toBe(false);
  });
});

describe('Ajv and zod reject the same broken manifests', () => {
  let exact: RequestManifest;
  beforeAll(async () => {
    exact = (await previewFor()).manifest;
  });

  let validate: ReturnType<Ajv2020['compile']> | undefined;
  const ajvValidate = () => (validate ??= new Ajv2020({ strict: true, allErrors: true }).compile(MANIFEST_JSON_SCHEMA));

  // biome-ignore lint/suspicious/noExplicitAny: the mutations reach deep into untyped manifest JSON
  const mutations: [string, (manifest: Record<string, any>) => void][] = [
    ['an extra field in route', (m) => (m['route'].exact.extra = 1)],
    [
      'an unavailable section that also carries facts',
      (m) => (m['route'] = { unavailable: { reason: 'route-plan-failed', detail: null }, exact: m['route'].exact }),
    ],
    [
      'a reason the section cannot have',
      (m) => (m['route'] = { unavailable: { reason: 'runtime-transforms-before-send', detail: null } }),
    ],
    ['an unknown reason', (m) => (m['body'] = { unavailable: { reason: 'maybe', detail: null } })],
    ['a missing detail', (m) => (m['body'] = { unavailable: { reason: 'route-plan-failed' } })],
    ['a negative count', (m) => (m['body'].exact.message_count = -1)],
    ['a fractional count', (m) => (m['body'].exact.body_canonical_json_bytes = 1.5)],
    ['a hash that is not hex', (m) => (m['body'].exact.body_sha256 = 'Z'.repeat(64))],
    ['a label with a control character', (m) => (m['route'].exact.wire_model = 'model\u001b[31m')],
    ['an over-long label', (m) => (m['route'].exact.route_id = 'x'.repeat(81))],
    [
      'an over-long detail',
      (m) => (m['body'] = { unavailable: { reason: 'route-plan-failed', detail: 'y'.repeat(202) } }),
    ],
    ['another schema version', (m) => (m['schema_version'] = 2)],
    [
      'a usage value mixing both forms',
      (m) =>
        (m['body'].exact.provider_reported_usage = { exact: { input_tokens: 1, output_tokens: 1 }, unavailable: null }),
    ],
  ];

  it('an exact manifest passes both', () => {
    expect(requestManifestSchema(builtinReasonTable()).safeParse(exact).success).toBe(true);
    expectValidManifest(exact);
  });

  for (const [name, mutate] of mutations) {
    it(name, () => {
      // biome-ignore lint/suspicious/noExplicitAny: the mutations reach deep into untyped manifest JSON
      const broken = JSON.parse(JSON.stringify(exact)) as Record<string, any>;
      mutate(broken);
      expect(requestManifestSchema(builtinReasonTable()).safeParse(broken).success).toBe(false);
      expect(ajvValidate()(broken)).toBe(false);
    });
  }
});

describe('docs/preview-request.md explains every field', () => {
  it('names each field of each section', () => {
    const doc = readFileSync(new URL('../docs/preview-request.md', import.meta.url), 'utf8');
    const missing: string[] = [];
    for (const section of ['session', 'route', 'tools', 'body'] as const) {
      for (const name of sectionFieldNames(section))
        if (!doc.includes(`\`${name}\``)) missing.push(`${section}.${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('lists every unavailable reason', () => {
    const doc = readFileSync(new URL('../docs/preview-request.md', import.meta.url), 'utf8');
    const node = MANIFEST_JSON_SCHEMA.properties?.['body'] as SchemaNode;
    const reasons =
      node.anyOf?.flatMap((branch) => [...(branch.properties?.['unavailable']?.properties?.['reason']?.enum ?? [])]) ??
      [];
    for (const reason of [
      ...reasons,
      'provider-request-not-executed',
      'no-offline-tokenizer-for-route',
      'offline-tokenizer-not-requested',
      'offline-tokenizer-failed',
      'route-not-metered',
      'no-published-price',
      'price-incomplete',
    ]) {
      expect(doc, String(reason)).toContain(`\`${String(reason)}\``);
    }
  });
});
