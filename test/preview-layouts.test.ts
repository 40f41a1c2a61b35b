// A preview after a full collection builds no hidden class again (docs/performance.md, "Layouts that
// outlive a collection"): every object it makes member by member is laid out through classes a kept
// object still uses. Read off V8's own log of hidden classes. Needs `npm run build` first.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cw-fixture.js';

const folder = mkdtempSync(join(tmpdir(), 'cw-layouts-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The members whose hidden classes the marked preview built, in the order V8 logged them. */
function layoutsBuilt(log: string): string[] {
  const lines = log.split('\n');
  const begin = lines.findIndex((line) => line.startsWith('map,Transition,') && line.endsWith(',cwLayoutsBeginMarker'));
  const end = lines.findIndex((line) => line.startsWith('map,Transition,') && line.endsWith(',cwLayoutsEndMarker'));
  expect(begin, 'the begin marker is logged').toBeGreaterThan(-1);
  expect(end, 'the end marker is logged').toBeGreaterThan(begin);
  // `map,<event>,<time>,<from>,<to>,<pc>,<line>,<column>,<reason>,<member>`: the event and the member.
  return lines
    .slice(begin + 1, end)
    .filter((line) => line.startsWith('map,'))
    .map((line) => {
      const fields = line.split(',');
      return `${fields[1]} ${fields.slice(9).join(',')}`;
    });
}

describe('a preview after a full collection', () => {
  it('builds no hidden class again', () => {
    const logfile = join(folder, 'v8.log');
    const child = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        '--log-maps',
        `--logfile=${logfile}`,
        '--no-logfile-per-isolate',
        'test/fixtures/preview-after-collection.mjs',
      ],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(layoutsBuilt(readFileSync(logfile, 'utf8'))).toEqual([]);
  });
});
