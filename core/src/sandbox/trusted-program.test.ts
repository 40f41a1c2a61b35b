import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findTrustedProgram, folderTrust, trustedProgramFile, userProgramOutsideWorkspace } from './trusted-program.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});
async function folder(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), 'cw-trusted-'));
  folders.push(made);
  return made;
}

const posix = process.platform !== 'win32';
const asRoot = posix && process.getuid?.() === 0;
// A system folder this machine has, root-owned and writable by root alone.
const SYSTEM = ['/usr/bin', '/bin'].find((path) => existsSync(join(path, 'sh')));

describe('folderTrust', () => {
  it.skipIf(!posix || SYSTEM === undefined)('trusts a root-owned system folder, not one inside the workspace', () => {
    expect(folderTrust(SYSTEM as string)).toBe('trusted');
    expect(folderTrust(SYSTEM as string, { workspace: '/' })).toBe('in-workspace');
    expect(findTrustedProgram('sh', { PATH: `relative:${SYSTEM}` })).toBe(join(SYSTEM as string, 'sh'));
    expect(trustedProgramFile(join(SYSTEM as string, 'sh'))).toBe(true);
  });

  it.skipIf(!posix)(
    'refuses relative, missing and node_modules folders, and anything under a world-writable folder',
    async () => {
      const root = await folder();
      await mkdir(join(root, 'node_modules', '.bin'), { recursive: true });
      expect(folderTrust('bin')).toBe('relative');
      expect(folderTrust('')).toBe('relative');
      expect(folderTrust(join(root, 'none'))).toBe('missing');
      expect(folderTrust(join(root, 'node_modules', '.bin'))).toBe('node-modules');
      await chmod(root, 0o755);
      // The temp folder every user can write holds it, whoever owns the folder itself.
      expect(folderTrust(root)).toBe(asRoot ? 'writable-by-others' : 'not-root-owned');
      expect(folderTrust(root, { workspace: root })).toBe('in-workspace');
    },
  );

  it.skipIf(!asRoot)('refuses a folder that is group-writable or not owned by root', async () => {
    const root = await folder();
    await chmod(root, 0o775);
    expect(folderTrust(root)).toBe('writable-by-others');
    await chmod(root, 0o755);
    await chown(root, 1000, 1000);
    expect(folderTrust(root)).toBe('not-root-owned');
  });
});

describe('userProgramOutsideWorkspace', () => {
  it.skipIf(!posix)(
    'skips PATH folders inside the workspace, node_modules and relative ones; keeps a path the user wrote',
    async () => {
      const root = await folder();
      const ws = join(root, 'ws');
      const planted = join(ws, '.venv', 'bin');
      const packageBin = join(root, 'pkg', 'node_modules', '.bin');
      const userBin = join(root, 'user-bin');
      for (const made of [planted, packageBin, userBin]) {
        await mkdir(made, { recursive: true });
        await writeFile(join(made, 'tool'), '#!/bin/sh\n');
        await chmod(join(made, 'tool'), 0o755);
      }
      const PATH = `relative:${planted}:${packageBin}:${userBin}`;
      expect(userProgramOutsideWorkspace('tool', { PATH }, { workspace: ws })).toBe(join(userBin, 'tool'));
      expect(userProgramOutsideWorkspace('tool', { PATH: `${planted}:${packageBin}` }, { workspace: ws })).toBeNull();
      expect(userProgramOutsideWorkspace('./scripts/tool', { PATH }, { workspace: ws })).toBe('./scripts/tool');
      expect(userProgramOutsideWorkspace('', { PATH }, { workspace: ws })).toBeNull();
    },
  );
});
