import { chmod, lstat, readdir, readFile, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editFileTool, lineCount, occurrences } from './edit-file-tool.js';
import { useTempWorkspace } from './workspace-fixture.js';

const workspace = useTempWorkspace();

describe('edit_file', () => {
  it('replaces the one occurrence and reports the change size', async () => {
    const ws = workspace();
    const file = await ws.write('src/a.ts', 'one\ntwo\nthree\nfour\n');
    const outcome = await ws.run(editFileTool, {
      path: 'src/a.ts',
      old_text: 'two\nthree\nfour\n',
      new_text: 'TWO\n2\nTHREE\n3\nFOUR\n',
    });
    expect(outcome).toEqual({ status: 'ok', content: 'edited src/a.ts: -3 +5 lines' });
    expect(await readFile(file, 'utf8')).toBe('one\nTWO\n2\nTHREE\n3\nFOUR\n');
  });

  it('inserts new_text literally, without replacement patterns', async () => {
    const ws = workspace();
    const file = await ws.write('a.txt', 'price: X\n');
    await ws.run(editFileTool, { path: 'a.txt', old_text: 'X', new_text: "$& $' $1" });
    expect(await readFile(file, 'utf8')).toBe("price: $& $' $1\n");
  });

  it('refuses old_text that is absent or occurs more than once', async () => {
    const ws = workspace();
    const file = await ws.write('a.txt', 'x = 1;\nx = 1;\n');
    expect(await ws.run(editFileTool, { path: 'a.txt', old_text: 'y = 2', new_text: 'z' })).toEqual({
      status: 'error',
      content:
        'old_text not found in a.txt; read the file and copy the exact text, including whitespace and indentation',
    });
    expect(await ws.run(editFileTool, { path: 'a.txt', old_text: 'x = 1;', new_text: 'z' })).toEqual({
      status: 'error',
      content: 'old_text occurs 2 times in a.txt; include more context so it matches exactly once',
    });
    expect(await readFile(file, 'utf8')).toBe('x = 1;\nx = 1;\n');
  });

  it('counts overlapping occurrences as ambiguous', async () => {
    const ws = workspace();
    await ws.write('a.txt', 'aaa');
    expect((await ws.run(editFileTool, { path: 'a.txt', old_text: 'aa', new_text: 'b' })).content).toContain(
      'occurs 2 times',
    );
  });

  it('writes atomically: keeps the mode, leaves no temporary file', async () => {
    const ws = workspace();
    const file = await ws.write('run.sh', '#!/bin/sh\necho old\n');
    await chmod(file, 0o751);
    const before = await stat(file);
    expect((await ws.run(editFileTool, { path: 'run.sh', old_text: 'old', new_text: 'new' })).status).toBe('ok');
    const after = await stat(file);
    expect(after.mode & 0o7777).toBe(0o751);
    // A rename put a new inode in place: the old content was never overwritten in place.
    expect(after.ino).not.toBe(before.ino);
    expect(await readdir(ws.root)).toEqual(['run.sh']);
    expect(await readFile(file, 'utf8')).toBe('#!/bin/sh\necho new\n');
  });

  it('edits a CRLF file when old_text uses plain newlines', async () => {
    const ws = workspace();
    const file = await ws.write('win.txt', 'a\r\nb\r\nc\r\n');
    expect(await ws.run(editFileTool, { path: 'win.txt', old_text: 'a\nb\n', new_text: 'A\nB\n' })).toEqual({
      status: 'ok',
      content: 'edited win.txt: -2 +2 lines',
    });
    expect(await readFile(file, 'utf8')).toBe('A\r\nB\r\nc\r\n');
  });

  it('edits the target of a symbolic link inside and keeps the link', async () => {
    const ws = workspace();
    const real = await ws.write('real.txt', 'hello\n');
    await symlink(real, path.join(ws.root, 'link.txt'));
    expect((await ws.run(editFileTool, { path: 'link.txt', old_text: 'hello', new_text: 'bye' })).status).toBe('ok');
    expect(await readFile(real, 'utf8')).toBe('bye\n');
    expect((await lstat(path.join(ws.root, 'link.txt'))).isSymbolicLink()).toBe(true);
  });

  it('refuses paths outside, binary files, missing files and folders', async () => {
    const ws = workspace();
    const outsideFile = await ws.write('../outside/x.txt', 'secret\n');
    await symlink(path.dirname(outsideFile), path.join(ws.root, 'escape'));
    await ws.write('blob.bin', Buffer.from([0x61, 0, 0x62]));
    await ws.write('dir/a.txt', '');
    for (const requested of ['../outside/x.txt', outsideFile, 'escape/x.txt']) {
      const outcome = await ws.run(editFileTool, { path: requested, old_text: 'secret', new_text: 'pwned' });
      expect(outcome.status).toBe('error');
      expect(outcome.content).toContain('path is outside the workspace');
    }
    expect(await readFile(outsideFile, 'utf8')).toBe('secret\n');
    expect((await ws.run(editFileTool, { path: 'blob.bin', old_text: 'a', new_text: 'c' })).content).toBe(
      'blob.bin looks like a binary file; edit_file changes text files only',
    );
    expect((await ws.run(editFileTool, { path: 'nope.txt', old_text: 'a', new_text: 'c' })).content).toBe(
      'nope.txt: file not found; edit_file only changes existing files',
    );
    expect((await ws.run(editFileTool, { path: 'dir', old_text: 'a', new_text: 'c' })).content).toBe(
      'dir is a directory, not a file',
    );
  });

  it('turns bad arguments into errors', async () => {
    const ws = workspace();
    await ws.write('a.txt', 'a');
    expect((await ws.run(editFileTool, { path: 'a.txt', old_text: '', new_text: 'x' })).status).toBe('error');
    expect((await ws.run(editFileTool, { path: 'a.txt', old_text: 'a', new_text: 'a' })).status).toBe('error');
    expect((await ws.run(editFileTool, { path: 'a.txt', old_text: 'a' })).content).toBe(
      'missing required argument new_text',
    );
    expect((await ws.run(editFileTool, { path: 'a.txt', old_text: ['a'], new_text: 'b' })).status).toBe('error');
  });

  it('is not read-only', () => {
    expect(editFileTool.readOnly).toBe(false);
    expect(editFileTool.summarize?.({ path: 'src/a.ts', old_text: 'x', new_text: 'y' })).toBe('src/a.ts');
  });
});

describe('edit_file and git folders', () => {
  const REFUSAL =
    'refused: only what a commit writes may change inside .git (its config, hooks, info and links stay read-only)';

  it('refuses a git config, a hook and a nested repository config with one line, leaving them as they were', async () => {
    const ws = workspace();
    const files = {
      '.git/config': '[core]\n\tbare = false\n',
      '.git/hooks/x': '#!/bin/sh\nexit 0\n',
      'sub/.git/config': '[core]\n\tbare = false\n',
    };
    for (const [relative, content] of Object.entries(files)) await ws.write(relative, content);
    for (const [relative, content] of Object.entries(files)) {
      const outcome = await ws.run(editFileTool, { path: relative, old_text: 'false', new_text: 'true' });
      expect(outcome, relative).toEqual({ status: 'error', content: REFUSAL });
      expect(await readFile(path.join(ws.root, relative), 'utf8')).toBe(content);
    }
    // Nor by another spelling of the same file: a letter case, a link to the folder.
    await symlink(path.join(ws.root, '.git'), path.join(ws.root, 'g'));
    for (const spelling of ['.GIT/config', 'g/config', './sub/../.git/hooks/x']) {
      const outcome = await ws.run(editFileTool, { path: spelling, old_text: 'e', new_text: 'E' });
      expect(outcome.content, spelling).toBe(REFUSAL);
    }
    expect(await readFile(path.join(ws.root, '.git/config'), 'utf8')).toBe(files['.git/config']);
    expect((await readdir(path.join(ws.root, '.git'))).sort()).toEqual(['config', 'hooks']);
  });

  it('edits what a commit writes, such as COMMIT_EDITMSG', async () => {
    const ws = workspace();
    const file = await ws.write('.git/COMMIT_EDITMSG', 'wip\n');
    expect(
      await ws.run(editFileTool, { path: '.git/COMMIT_EDITMSG', old_text: 'wip', new_text: 'Fix the parser' }),
    ).toEqual({ status: 'ok', content: 'edited .git/COMMIT_EDITMSG: -1 +1 lines' });
    expect(await readFile(file, 'utf8')).toBe('Fix the parser\n');
  });
});

describe('edit helpers', () => {
  it('count lines and occurrences', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('\n')]).toEqual([
      0, 1, 1, 2, 1,
    ]);
    expect([occurrences('abcabc', 'abc'), occurrences('aaaa', 'aa'), occurrences('x', 'y')]).toEqual([2, 3, 0]);
  });
});
