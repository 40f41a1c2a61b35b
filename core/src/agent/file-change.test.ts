import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspaceFiles } from '../sandbox/workspace-files.js';
import type { ToolImplementation } from '../tools/tool-contract.js';
import { applyHunks } from '../text/unified-diff.js';
import { proposedDiff } from './file-change.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function folder(): Promise<string> {
  const made = realpathSync(await mkdtemp(join(tmpdir(), 'cw-change-')));
  folders.push(made);
  return made;
}

const writer: ToolImplementation = {
  name: 'write',
  description: '',
  inputSchema: { type: 'object' },
  readOnly: false,
  execute: async () => ({ status: 'ok', content: '' }),
  fileChange: (args) =>
    typeof args['content'] === 'string'
      ? { path: String(args['path']), content: args['content'] }
      : { path: String(args['path']), edits: [{ oldText: String(args['old']), newText: String(args['new']) }] },
};

describe('proposedDiff', () => {
  it('diffs an edit against the file as it is, with the path relative to the workspace', async () => {
    const workspace = await folder();
    await writeFile(join(workspace, 'notes.txt'), 'one\ntwo\nthree\n');
    const context = { workspace, files: workspaceFiles(workspace, []) };
    const diff = await proposedDiff(writer, { path: join(workspace, 'notes.txt'), old: 'two', new: 'TWO' }, context);
    expect(diff).toMatchObject({ path: 'notes.txt', added: 1, removed: 1, created: false });
    expect(applyHunks('one\ntwo\nthree\n', diff?.hunks ?? [])).toBe('one\nTWO\nthree\n');
    const created = await proposedDiff(writer, { path: 'new/file.md', content: 'a\nb\n' }, context);
    expect(created).toMatchObject({ path: 'new/file.md', added: 2, removed: 0, created: true });
  });

  it('shows nothing for an edit that does not apply, a path outside, or a link out of the workspace', async () => {
    const workspace = await folder();
    const outside = await folder();
    await writeFile(join(outside, 'secret.txt'), 'kept private\n');
    await symlink(join(outside, 'secret.txt'), join(workspace, 'link.txt'));
    await writeFile(join(workspace, 'twice.txt'), 'x x\n');
    const context = { workspace, files: workspaceFiles(workspace, []) };
    expect(await proposedDiff(writer, { path: 'twice.txt', old: 'x', new: 'y' }, context)).toBeNull();
    expect(await proposedDiff(writer, { path: '../elsewhere.txt', content: 'a' }, context)).toBeNull();
    expect(await proposedDiff(writer, { path: join(outside, 'secret.txt'), content: 'a' }, context)).toBeNull();
    expect(await proposedDiff(writer, { path: 'link.txt', content: 'new\n' }, context)).toBeNull();
  });
});
