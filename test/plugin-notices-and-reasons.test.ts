// A third-party plugin registers its own notice kind and its own gate reason (docs/plugin-authors.md,
// "Notices and gate reasons"): the fixture test/fixtures/turn-plugins/quota-gate, installed like any
// plugin, counts the turns a send prepares and stops turns once its quota is used up. The core names
// neither: the notice reaches `cw send --output-format stream-json` typed, with its fields, and the
// reason stands in the manifest, in the preview table's words and in cw send's error line. Runs the
// BUILT CLI (`npm run build` first).
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RequestManifest } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { expectValidManifest } from './support/manifest-schema.js';
import {
  installQuotaGate,
  QUOTA_GATE_FIXTURE,
  QUOTA_SPENT,
  QUOTA_USED,
  readQuota,
} from './support/quota-gate-plugin.js';
import { isNoSandboxNotice, withoutNoSandboxNotice } from './support/require-bubblewrap.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const models = useScriptedModels('CW_QUOTA_GATE_KEY', FAKE_KEY);
const schema = JSON.parse(await readFile(new URL('../docs/events.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

function reasons(manifest: RequestManifest): (string | null)[] {
  return (['route', 'tools', 'body'] as const).map((section) => {
    const value = manifest[section];
    return 'unavailable' in value ? value.unavailable.reason : null;
  });
}

describe("a plugin's own notice kind and gate reason", () => {
  it('reach stream-json typed, and the manifest, the preview table and cw send by their registered names', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'first answer' } });
    const ws = await models.folder('cw-quota-gate-ws-');
    const home = await models.home(model, { workspace: ws });
    const env = models.envFor(home);
    await installQuotaGate(env['CW_DATA_DIR'] ?? '', home, { limit: 1, used: 0 });

    const sent = await runCwChild(['send', '--output-format', 'stream-json', '--prompt', 'hi'], env, { cwd: ws });
    expect(sent.code, sent.stderr).toBe(0);
    const lines = sent.stdout
      .trimEnd()
      .split('\n')
      .map((text) => {
        const line = JSON.parse(text) as Record<string, unknown>;
        expect(validate(line), `${text}\n${JSON.stringify(validate.errors)}`).toBe(true);
        return line;
      })
      .filter((line) => !isNoSandboxNotice(line));
    const notices = lines.filter((line) => line['type'] === 'notice');
    expect(notices).toEqual([
      { type: 'notice', kind: QUOTA_USED, message: 'quota: turn 1 of 1', fields: { used: 1, limit: 1 } },
    ]);
    // Reported while the turn was prepared, before its request went out.
    expect(lines.findIndex((line) => line['type'] === 'notice')).toBeLessThan(
      lines.findIndex((line) => line['type'] === 'step-start'),
    );
    expect(await readQuota(home)).toEqual({ limit: 1, used: 1 });

    // The quota is used up: the plugin's own reason stands in every section, with its detail.
    const before = await homeBytes(home);
    const preview = await runCwChild(['preview-request', 'json', '--prompt', 'again'], env, { cwd: ws });
    expect(preview.code, preview.stderr).toBe(0);
    const manifest = JSON.parse(preview.stdout) as RequestManifest;
    expectValidManifest(manifest);
    expect(reasons(manifest)).toEqual(Array(3).fill(QUOTA_SPENT));
    expect(manifest.body).toEqual({ unavailable: { reason: QUOTA_SPENT, detail: '1 of 1 turns used' } });
    const table = await runCwChild(['preview-request', '--prompt', 'again'], env, { cwd: ws });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('the turn quota of this cw home is used up');
    expect(table.stdout).toContain(QUOTA_SPENT);

    const refused = await runCwChild(['send', '--prompt', 'again'], env, { cwd: ws });
    expect(refused.code).toBe(1);
    expect(withoutNoSandboxNotice(refused.stderr)).toBe(
      `cw: this turn cannot be sent: ${QUOTA_SPENT} (1 of 1 turns used): raise limit in quota-gate.json; the request was not sent\n`,
    );
    expect(model.requests).toHaveLength(1);
    expect(await homeBytes(home)).toEqual(before);
  });

  it('cw plugins link lists them among what the plugin registered', async () => {
    const model = await models.model('chat-completions');
    const env = models.envFor(await models.home(model));
    const linked = await runCwChild(['plugins', 'link', QUOTA_GATE_FIXTURE, '--no-install'], env);
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stdout).toBe(
      [
        'cw-fixture-quota-gate 1.0.0 (plugin API 3) registered:',
        `  notice kind ${QUOTA_USED}`,
        `  gate reason ${QUOTA_SPENT}`,
        '  hook taps: turn.gate ×1, turn.loadState ×1, turn.prepareTurn ×1, turn.afterSave ×1',
        '',
      ].join('\n'),
    );
  });
});
