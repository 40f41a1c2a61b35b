import { join } from 'node:path';
import { Config } from '@oclif/core';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cw-fixture.js';
import { runCwChild, tempFolders } from './support/spawn-cw.js';

// cw --version is answered before oclif loads (docs/performance.md): it must print oclif's own line.
describe('cw --version', () => {
  const folders = tempFolders();
  afterAll(folders.cleanup);

  it('prints the line oclif would, and nothing else', async () => {
    const home = await folders.make('cw-version-');
    const config = await Config.load(join(REPO_ROOT, 'cli'));
    for (const args of [['--version'], ['--version', 'routes']]) {
      const result = await runCwChild(args, { CW_HOME: home, CW_DATA_DIR: home });
      expect(result).toEqual({ code: 0, stdout: `${config.userAgent}\n`, stderr: '' });
    }
  });
});
