import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSkills } from './discover-skills.js';

const SKILL = '---\nname: deploy\ndescription: Deploys the app.\n---\n\nRun the deploy script.\n';

let base = '';
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cw-skills-')));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('discoverSkills in the workspace', () => {
  it('reads a skill folder linked inside the workspace, and refuses one linked out of it', async () => {
    const home = join(base, 'home');
    const ws = join(base, 'ws');
    const elsewhere = join(base, 'elsewhere');
    await mkdir(join(home, 'skills'), { recursive: true });
    await mkdir(join(ws, '.cw', 'skills'), { recursive: true });
    await mkdir(join(ws, 'shared', 'deploy'), { recursive: true });
    await writeFile(join(ws, 'shared', 'deploy', 'SKILL.md'), SKILL);
    await symlink(join(ws, 'shared', 'deploy'), join(ws, '.cw', 'skills', 'deploy'));
    await mkdir(join(elsewhere, 'leak'), { recursive: true });
    await writeFile(join(elsewhere, 'leak', 'SKILL.md'), SKILL.replaceAll('deploy', 'leak'));
    await symlink(join(elsewhere, 'leak'), join(ws, '.cw', 'skills', 'leak'));
    expect(await discoverSkills(home, ws)).toEqual([
      {
        status: 'ok',
        source: 'workspace',
        skill: { name: 'deploy', description: 'Deploys the app.', body: 'Run the deploy script.\n' },
      },
      {
        status: 'broken',
        source: 'workspace',
        name: 'leak',
        problem: 'SKILL.md leads out of the workspace through a symbolic link',
      },
    ]);
  });
});
