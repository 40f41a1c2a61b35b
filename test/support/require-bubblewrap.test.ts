import { describe, expect, it } from 'vitest';
import { BUBBLEWRAP_CI_LINE, BUBBLEWRAP_SKIP_LINE, bubblewrapDecision, isCi } from './require-bubblewrap.js';

describe('bubblewrapDecision', () => {
  it('runs the sandbox tests wherever bubblewrap is found, CI or not', () => {
    expect(bubblewrapDecision(true, {})).toEqual({ kind: 'run' });
    expect(bubblewrapDecision(true, { CI: 'true' })).toEqual({ kind: 'run' });
  });

  it('outside CI, skips them with one line naming the package to install', () => {
    for (const env of [{}, { CI: '' }, { CI: 'false' }, { CI: '0' }]) {
      expect(bubblewrapDecision(false, env)).toEqual({ kind: 'skip', line: BUBBLEWRAP_SKIP_LINE });
    }
    expect(BUBBLEWRAP_SKIP_LINE).toContain('apt-get install bubblewrap');
    expect(BUBBLEWRAP_SKIP_LINE).not.toContain('\n');
  });

  it('under CI, fails them: a CI run never passes by skipping the sandbox', () => {
    for (const env of [{ CI: 'true' }, { CI: '1' }, { CI: 'TRUE' }]) {
      expect(isCi(env)).toBe(true);
      expect(bubblewrapDecision(false, env)).toEqual({ kind: 'fail', line: BUBBLEWRAP_CI_LINE });
    }
  });
});
