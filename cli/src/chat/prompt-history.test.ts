import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_HISTORY_ENTRIES,
  MAX_HISTORY_ENTRY_CHARS,
  historyFile,
  readHistory,
  withEntry,
  writeHistory,
} from './prompt-history.js';

let home = '';
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'cw-history-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('the prompt history file', () => {
  it('round-trips, owner-only, leaving no temporary file', async () => {
    const file = historyFile(join(home, 'a'));
    await writeHistory(file, ['first', 'second\nwith a second line']);
    expect(await readHistory(file)).toEqual(['first', 'second\nwith a second line']);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(home, 'a'))).toEqual(['chat-history.json']);
  });

  it('is bounded: the oldest entries go first', async () => {
    const file = historyFile(join(home, 'b'));
    let entries: string[] = [];
    for (let index = 0; index < MAX_HISTORY_ENTRIES + 20; index++) entries = withEntry(entries, `prompt ${index}`);
    await writeHistory(file, entries);
    const read = await readHistory(file);
    expect(read).toHaveLength(MAX_HISTORY_ENTRIES);
    expect(read[0]).toBe('prompt 20');
    expect(read.at(-1)).toBe(`prompt ${MAX_HISTORY_ENTRIES + 19}`);
  });

  it('skips blank lines, a repeat of the last entry and over-long pastes', () => {
    expect(withEntry(['a'], 'a')).toEqual(['a']);
    expect(withEntry(['a'], '   ')).toEqual(['a']);
    expect(withEntry(['a'], 'x'.repeat(MAX_HISTORY_ENTRY_CHARS + 1))).toEqual(['a']);
    expect(withEntry(['a'], 'b')).toEqual(['a', 'b']);
  });

  it('reads a missing or malformed file as empty', async () => {
    expect(await readHistory(join(home, 'missing.json'))).toEqual([]);
    const bad = join(home, 'bad.json');
    await writeFile(bad, '{"version": 2, "entries": ["x"]}');
    expect(await readHistory(bad)).toEqual([]);
    await writeFile(bad, 'not json');
    expect(await readHistory(bad)).toEqual([]);
    expect(await readFile(bad, 'utf8')).toBe('not json');
  });
});
