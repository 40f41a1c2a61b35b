import { describe, expect, it } from 'vitest';
import { unavailableManifest } from '../../../test/support/example-manifest.js';
import { renderManifestTable, TABLE_WIDTH } from './render-manifest-table.js';
import { builtinReasonTable } from '@cw/core';

const manifestWith = unavailableManifest;

const widest = (text: string): number => Math.max(...text.split('\n').map((line) => [...line].length));

describe('renderManifestTable', () => {
  it('every unavailable reason renders in words within 80 columns', () => {
    for (const reason of [
      'no-hypothetical-prompt-supplied',
      'auto-route-unresolved-until-next-prompt',
      'route-plan-failed',
      'goal-state-not-snapshottable',
    ] as const) {
      const text = renderManifestTable(
        manifestWith(reason, reason === 'route-plan-failed' ? 'route nope is not registered' : null),
        { color: false },
      );
      expect(widest(text)).toBeLessThanOrEqual(TABLE_WIDTH);
      expect(text).toContain(builtinReasonTable().label(reason).split(' ').slice(0, 4).join(' '));
      expect(text).toContain(reason);
    }
  });

  it('auto routing hints at a fixed route; no prompt hints at --prompt', () => {
    const words = (text: string): string => text.replace(/\s+/g, ' ');
    expect(
      words(renderManifestTable(manifestWith('auto-route-unresolved-until-next-prompt', null), { color: false })),
    ).toContain('Select a fixed route');
    expect(renderManifestTable(manifestWith('no-hypothetical-prompt-supplied', null), { color: false })).toContain(
      'Pass --prompt <text>',
    );
    expect(renderManifestTable(manifestWith('route-plan-failed', 'x'), { color: false })).not.toContain(
      'Pass --prompt',
    );
  });

  it('hostile values cannot drive the terminal or widen the table', () => {
    const hostile = `\u001b[2J\u001b]0;pwned\u0007${'w'.repeat(300)} \u202etxt.exe`;
    const text = renderManifestTable(
      manifestWith('route-plan-failed', hostile, { session_name: `a\u001b[31mb`, requested_model: 'm'.repeat(200) }),
      { color: false },
    );
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(widest(text)).toBeLessThanOrEqual(TABLE_WIDTH);
  });

  it('colour wraps headings in escape codes only when asked', () => {
    const manifest = manifestWith('no-hypothetical-prompt-supplied', null);
    const plain = renderManifestTable(manifest, { color: false });
    const coloured = renderManifestTable(manifest, { color: true });
    expect(plain).not.toContain('\u001b[');
    expect(coloured).toContain('\u001b[1mSession\u001b[22m');
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain);
  });
});
