import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findSandboxProgram, sandboxState } from './find-sandbox.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function folderWithBwrap(mode: number): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'cw-bwrap-'));
  folders.push(folder);
  await writeFile(join(folder, 'bwrap'), '#!/bin/sh\n');
  await chmod(join(folder, 'bwrap'), mode);
  return folder;
}

describe('findSandboxProgram', () => {
  it('finds an executable bwrap on PATH on Linux, without running it', async () => {
    const folder = await folderWithBwrap(0o755);
    expect(findSandboxProgram({ PATH: `/nonexistent:${folder}` }, 'linux')).toEqual({
      kind: 'bubblewrap',
      file: join(folder, 'bwrap'),
    });
  });

  it('skips a bwrap that is not executable, and relative PATH entries', async () => {
    const folder = await folderWithBwrap(0o644);
    expect(findSandboxProgram({ PATH: folder }, 'linux')).toBeNull();
    expect(findSandboxProgram({ PATH: '.:bin' }, 'linux')).toBeNull();
  });

  it('has nothing on other systems, and the state says off before it looks', async () => {
    const folder = await folderWithBwrap(0o755);
    expect(findSandboxProgram({ PATH: folder }, 'win32')).toBeNull();
    expect(sandboxState('off', { PATH: folder }, 'linux')).toBe('off');
    expect(sandboxState('on', { PATH: folder }, 'linux')).toBe('bubblewrap');
    expect(sandboxState('required', { PATH: '' }, 'linux')).toBe('unavailable');
  });
});
