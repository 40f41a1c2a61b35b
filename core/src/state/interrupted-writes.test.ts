import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeInterruptedWrites, tempNameFor } from './interrupted-writes.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('removeInterruptedWrites', () => {
  it('removes temp files of dead writers and old unnamed ones, keeps live writers and every other file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'cw-writes-'));
    folders.push(folder);
    const dead = tempNameFor(4194305, 'aaaaaaaaaaaa');
    const live = tempNameFor(process.pid, 'bbbbbbbbbbbb');
    const oldUnnamed = '.cccccccccccc.tmp';
    const newUnnamed = '.dddddddddddd.tmp';
    const others = ['default.json', 'default.calls.json', '.default.json.lock.1.aa.new', 'notes.tmp'];
    for (const name of [dead, live, oldUnnamed, newUnnamed, ...others]) await writeFile(join(folder, name), 'x');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(folder, oldUnnamed), hourAgo, hourAgo);
    expect(await removeInterruptedWrites(folder)).toBe(2);
    expect((await readdir(folder)).sort()).toEqual([live, newUnnamed, ...others].sort());
  });
});
