import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectPermissionsError, keepProjectPermission, readProjectPermissions } from './project-permissions.js';

const homes: string[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
});

async function home(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'cw-perm-'));
  homes.push(folder);
  return folder;
}

describe('project permissions', () => {
  it('keeps each rule once, per workspace, in the cw home', async () => {
    const cwHome = await home();
    expect(await readProjectPermissions(cwHome, '/projects/example-workspace')).toEqual([]);
    await Promise.all([
      keepProjectPermission(cwHome, '/projects/example-workspace', 'shell(npm test)'),
      keepProjectPermission(cwHome, '/projects/example-workspace', 'edit_file'),
      keepProjectPermission(cwHome, '/projects/example-workspace', 'shell(npm test)'),
    ]);
    expect((await readProjectPermissions(cwHome, '/projects/example-workspace')).sort()).toEqual([
      'edit_file',
      'shell(npm test)',
    ]);
    expect(await readProjectPermissions(cwHome, '/projects/other-workspace')).toEqual([]);
    // Only the file itself is left: no temp file, no lock.
    const files = await readdir(join(cwHome, 'permissions'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^example-workspace-[0-9a-f]{10}\.json$/);
  });

  it('a file that is not what cw wrote is refused with a one-line error, and never rewritten', async () => {
    const cwHome = await home();
    await keepProjectPermission(cwHome, '/projects/example-workspace', 'edit_file');
    const [name] = await readdir(join(cwHome, 'permissions'));
    const file = join(cwHome, 'permissions', name as string);
    await writeFile(file, '{"allow": [1]}');
    await expect(readProjectPermissions(cwHome, '/projects/example-workspace')).rejects.toBeInstanceOf(
      ProjectPermissionsError,
    );
    await expect(keepProjectPermission(cwHome, '/projects/example-workspace', 'shell(ls)')).rejects.toBeInstanceOf(
      ProjectPermissionsError,
    );
    expect(await readFile(file, 'utf8')).toBe('{"allow": [1]}');
  });
});
