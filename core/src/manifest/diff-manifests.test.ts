import { describe, expect, it } from 'vitest';
import { builtinReasonTable } from '../features/builtin-reason-table.js';
import { diffManifests, ManifestInputError, parseManifestText } from './diff-manifests.js';
import type { RequestManifest } from './manifest-schema.js';
import { renderManifestDiff } from '../../../cli/src/render/render-manifest-diff.js';
import { unavailableManifest } from '../../../test/support/example-manifest.js';
import { unavailable } from '../plan/unavailable-reason.js';

const BASE: RequestManifest = unavailableManifest();

describe('parseManifestText', () => {
  it('accepts a valid manifest', () =>
    expect(parseManifestText(JSON.stringify(BASE), 'A', builtinReasonTable())).toEqual(BASE));

  const rejects: [string, string, RegExp][] = [
    ['not JSON', 'sk-live-0123456789abcdef0123', /^manifest A is not valid JSON/],
    ['an array', '[1,2]', /no readable schema_version/],
    [
      'another version',
      JSON.stringify({ ...BASE, schema_version: 9 }),
      /schema_version 9; this cw reads schema_version 1/,
    ],
    ['a non-numeric version', JSON.stringify({ ...BASE, schema_version: '/etc/passwd' }), /no readable schema_version/],
    [
      'an unknown key (never echoed)',
      JSON.stringify({ ...BASE, session: { ...BASE.session, '/home/someone/key': 1 } }),
      /field session: unrecognized_keys/,
    ],
  ];
  for (const [name, text, message] of rejects) {
    it(`rejects ${name} with a typed, one-line error`, () => {
      let caught: unknown;
      try {
        parseManifestText(text, 'A', builtinReasonTable());
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ManifestInputError);
      const error = caught as ManifestInputError;
      expect(error.message).toMatch(message);
      expect(error.exitCode).toBe(1);
      for (const leaked of ['sk-live', '/etc/passwd', '/home/someone']) expect(error.message).not.toContain(leaked);
    });
  }
});

describe('diffManifests', () => {
  it('identical manifests have no differences in any group', () => {
    const diff = diffManifests(BASE, BASE);
    expect(diff.identical).toBe(true);
    expect(diff.groups.every((group) => group.differences.length === 0)).toBe(true);
    expect(renderManifestDiff(diff, { color: false })).toContain('identical');
  });

  it('session differences land in other fields; availability differences in availability', () => {
    const other = {
      ...BASE,
      session: { ...BASE.session, requested_route: 'local' },
      body: unavailable('route-plan-failed', 'route local is not registered'),
    };
    const diff = diffManifests(BASE, other as RequestManifest);
    const byId = Object.fromEntries(diff.groups.map((group) => [group.id, group.differences]));
    expect(byId['other']).toEqual([{ path: 'session.requested_route', a: 'deepseek', b: 'local' }]);
    expect(byId['availability']).toEqual([
      { path: 'body.unavailable.reason', a: 'no-hypothetical-prompt-supplied', b: 'route-plan-failed' },
      { path: 'body.unavailable.detail', a: null, b: 'route local is not registered' },
    ]);
    const text = renderManifestDiff(diff, { color: false });
    expect(text).toContain('body.unavailable.reason\n    A  no-hypothetical-prompt-supplied\n    B  route-plan-failed');
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });

  it('renders hostile values inert', () => {
    const other = { ...BASE, session: { ...BASE.session, session_name: 'x\u001b[2Jy' } };
    expect(renderManifestDiff(diffManifests(BASE, other), { color: false })).not.toContain('\u001b');
  });
});
