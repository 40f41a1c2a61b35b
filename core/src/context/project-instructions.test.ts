import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_INSTRUCTIONS_FILE_BYTES,
  MAX_INSTRUCTIONS_TOTAL_BYTES,
  ProjectInstructionsError,
  readProjectInstructions,
} from './project-instructions.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});
async function folder(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), 'cw-agents-'));
  folders.push(made);
  return made;
}

describe('readProjectInstructions', () => {
  it('reads the home file, then the workspace root down to the working folder', async () => {
    const home = await folder();
    const ws = await folder();
    await mkdir(join(ws, 'a', 'b'), { recursive: true });
    await writeFile(join(home, 'AGENTS.md'), 'home');
    await writeFile(join(ws, 'AGENTS.md'), 'root\n\n');
    await writeFile(join(ws, 'a', 'b', 'AGENTS.md'), 'deep');
    await mkdir(join(ws, 'a', 'AGENTS.md'));
    const layers = await readProjectInstructions({ home, workspace: ws, cwd: join(ws, 'a', 'b') });
    expect(layers.map((layer) => [layer.kind, layer.depth])).toEqual([
      ['home-instructions', 0],
      ['workspace-instructions', 0],
      ['workspace-instructions', 2],
    ]);
    expect(layers[1]?.text).toBe('\n<instructions source="AGENTS.md in folder .">\nroot\n</instructions>\n');
    expect(layers[2]?.text).toContain('source="AGENTS.md in folder a/b"');
    // Outside the workspace only its root counts.
    const outside = await readProjectInstructions({ home, workspace: join(ws, 'a'), cwd: ws });
    expect(outside.map((layer) => layer.kind)).toEqual(['home-instructions']);
  });

  it('bounds each file and the total', async () => {
    const home = await folder();
    const ws = await folder();
    await mkdir(join(ws, 'a', 'b'), { recursive: true });
    const big = 'y'.repeat(MAX_INSTRUCTIONS_FILE_BYTES + 100);
    await writeFile(join(ws, 'AGENTS.md'), big);
    await writeFile(join(ws, 'a', 'AGENTS.md'), big);
    await writeFile(join(ws, 'a', 'b', 'AGENTS.md'), big);
    const layers = await readProjectInstructions({ home, workspace: ws, cwd: join(ws, 'a', 'b') });
    expect(layers).toHaveLength(MAX_INSTRUCTIONS_TOTAL_BYTES / MAX_INSTRUCTIONS_FILE_BYTES);
    expect(layers.every((layer) => layer.truncated)).toBe(true);
  });

  it('stops on a file it cannot read', async () => {
    if (process.getuid?.() === 0) return;
    const home = await folder();
    const ws = await folder();
    await writeFile(join(ws, 'AGENTS.md'), 'secret');
    await chmod(join(ws, 'AGENTS.md'), 0o000);
    await expect(readProjectInstructions({ home, workspace: ws, cwd: ws })).rejects.toThrow(ProjectInstructionsError);
  });

  it('never reads an AGENTS.md that links out of the workspace: the turn stops with one line naming no path', async () => {
    const home = await folder();
    const ws = await folder();
    const elsewhere = await folder();
    const key =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAfake0\n-----END OPENSSH PRIVATE KEY-----\n';
    await writeFile(join(elsewhere, 'id_rsa'), key);
    await symlink(join(elsewhere, 'id_rsa'), join(ws, 'AGENTS.md'));
    const error = await readProjectInstructions({ home, workspace: ws, cwd: ws }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProjectInstructionsError);
    expect((error as ProjectInstructionsError).safeMessage).toBe(
      'cannot read AGENTS.md (workspace): it leads out of its folder through a symbolic link; remove the link',
    );
    expect((error as Error).message).not.toContain(elsewhere);
  });

  it('follows an AGENTS.md link that stays inside the workspace', async () => {
    const home = await folder();
    const ws = await folder();
    await writeFile(join(ws, 'CLAUDE.md'), 'Shared rule.\n');
    await symlink('CLAUDE.md', join(ws, 'AGENTS.md'));
    const layers = await readProjectInstructions({ home, workspace: ws, cwd: ws });
    expect(layers.map((layer) => layer.text)).toEqual([
      '\n<instructions source="AGENTS.md in folder .">\nShared rule.\n</instructions>\n',
    ]);
  });

  it('leaves out an AGENTS.md the sandbox hides, as if it were not there', async () => {
    const home = await folder();
    const ws = await folder();
    await mkdir(join(ws, 'private'));
    await writeFile(join(ws, 'AGENTS.md'), 'Root rule.\n');
    await writeFile(join(ws, 'private', 'AGENTS.md'), 'Private rule.\n');
    const hidden = [{ path: join(ws, 'private'), label: 'deny_read entry 1' }];
    const layers = await readProjectInstructions({ home, workspace: ws, cwd: join(ws, 'private'), hidden });
    expect(layers.map((layer) => layer.text)).toEqual([
      '\n<instructions source="AGENTS.md in folder .">\nRoot rule.\n</instructions>\n',
    ]);
  });
});
