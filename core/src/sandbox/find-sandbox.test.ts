import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findSandboxProgram, sandboxState } from './find-sandbox.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function folderWithBwrap(mode: number, under = ''): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'cw-bwrap-'));
  folders.push(root);
  const folder = join(root, under);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'bwrap'), '#!/bin/sh\n');
  await chmod(join(folder, 'bwrap'), mode);
  return folder;
}

const systemBwrap = process.platform === 'linux' && existsSync('/usr/bin/bwrap');

describe('findSandboxProgram', () => {
  it.skipIf(!systemBwrap)(
    'finds the system bwrap past a planted one earlier on PATH, without running either',
    async () => {
      const venv = await folderWithBwrap(0o755, '.venv/bin');
      const packageBin = await folderWithBwrap(0o755, 'node_modules/.bin');
      const plain = await folderWithBwrap(0o755);
      expect(findSandboxProgram({ PATH: `${venv}:${packageBin}:${plain}:/nonexistent:/usr/bin` }, 'linux')).toEqual({
        kind: 'bubblewrap',
        file: '/usr/bin/bwrap',
      });
      // A workspace that holds the system folder makes it the model's: nothing is trusted there.
      expect(findSandboxProgram({ PATH: '/usr/bin' }, 'linux', { workspace: '/usr' })).toBeNull();
    },
  );

  it('has no sandbox when only untrusted folders have a bwrap, and skips relative PATH entries', async () => {
    const folder = await folderWithBwrap(0o755);
    expect(findSandboxProgram({ PATH: folder }, 'linux')).toBeNull();
    expect(findSandboxProgram({ PATH: '.:bin' }, 'linux')).toBeNull();
  });

  it('has nothing on other systems, and the state says off before it looks', async () => {
    const folder = await folderWithBwrap(0o755);
    expect(findSandboxProgram({ PATH: '/usr/bin' }, 'win32')).toBeNull();
    expect(sandboxState('off', { PATH: folder }, 'linux')).toBe('off');
    expect(sandboxState('required', { PATH: folder }, 'linux')).toBe('unavailable');
    expect(sandboxState('required', { PATH: '' }, 'linux')).toBe('unavailable');
  });

  it.skipIf(!systemBwrap)('says bubblewrap when a trusted folder has it', () => {
    expect(sandboxState('on', { PATH: '/usr/bin' }, 'linux')).toBe('bubblewrap');
  });
});
