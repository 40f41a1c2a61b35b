// The file tools against a workspace that changes under them, in the shape of a real attack: a separate
// process flips `d` between a real folder inside the workspace and a symbolic link to a folder outside
// that holds a secret, while the model calls read_file and edit_file in parallel batches. What a tool
// opens is judged on its descriptor (docs/security.md, "Files cw opens in the workspace"), so no result
// holds the secret and no write lands outside, however the flips fall.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editFileTool } from './edit-file-tool.js';
import { readFileTool } from './read-file-tool.js';
import { useTempWorkspace } from './workspace-fixture.js';

const workspace = useTempWorkspace();
const SECRET = 'sk-test-0SECRET-OUTSIDE-THE-WORKSPACE';
const BATCH = 25;

// `d` is in turn the real folder (for a random spell, so checks pass), missing, and a link out (briefly,
// so it lands between a check and an open); it never stops on its own.
const FLIPPER = `
const fs = require('node:fs');
const [root, outside] = process.argv.slice(1);
process.chdir(root);
let flips = 0;
for (;;) {
  try {
    fs.renameSync('d', 'd.real');
    fs.symlinkSync(outside, 'd');
    spin(100_000);
    fs.unlinkSync('d');
    fs.renameSync('d.real', 'd');
    if (++flips === 1) process.stdout.write('flipping\\n');
    spin(300_000);
  } catch {}
}
function spin(nanoseconds) {
  const until = process.hrtime.bigint() + BigInt(Math.floor(Math.random() * nanoseconds));
  while (process.hrtime.bigint() < until);
}
`;

let flipper: ChildProcess | null = null;
afterEach(() => {
  flipper?.kill('SIGKILL');
  flipper = null;
});

/** Starts the flipper and resolves once it has flipped `d` at least once. */
async function startFlipping(root: string, outside: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', FLIPPER, root, outside], { stdio: ['ignore', 'pipe', 'ignore'] });
  flipper = child;
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', () => reject(new Error('the flipper stopped')));
  });
}

// A call whose check passed and whose open met the link: the new code refuses it with this line; code
// that opened the path again read or wrote outside instead.
const CAUGHT = 'refused: the path leads out of the workspace through a symbolic link';
// At least this many calls, and on until this many have met the link between check and open (or the cap).
const MIN_CALLS = 300;
const MIN_RACED = 5;
const MAX_CALLS = 5_000;

describe('the file tools under a link flipped in and out', () => {
  it('read_file never returns the secret behind the link, in 300 and more parallel calls', async () => {
    const ws = workspace();
    await ws.write('d/secret', 'inside\n');
    await writeFile(path.join(ws.outside, 'secret'), `${SECRET}\n`);
    await startFlipping(ws.root, ws.outside);
    const contents: string[] = [];
    const raced = (): number => contents.filter((content) => content === CAUGHT || content.includes(SECRET)).length;
    const racedAndRead = (): boolean => raced() >= MIN_RACED && contents.includes('inside');
    while (contents.length < MIN_CALLS || (!racedAndRead() && contents.length < MAX_CALLS)) {
      const outcomes = await Promise.all(
        Array.from({ length: BATCH }, () => ws.run(readFileTool, { path: 'd/secret' })),
      );
      contents.push(...outcomes.map((outcome) => outcome.content));
    }
    expect(contents.filter((content) => content.includes(SECRET))).toEqual([]);
    // The race was real: calls met the link after their check, and others read the folder inside.
    expect(raced()).toBeGreaterThanOrEqual(MIN_RACED);
    expect(contents).toContain('inside');
    expect(contents.filter((content) => content.includes('unexpectedly'))).toEqual([]);
  }, 30_000);

  it('edit_file never writes outside through the link, in 300 and more parallel calls', async () => {
    const ws = workspace();
    await ws.write('d/target', 'A\n');
    const outsideTarget = path.join(ws.outside, 'target');
    await writeFile(outsideTarget, 'A-B\n');
    const before = (await readdir(ws.outside)).sort();
    await startFlipping(ws.root, ws.outside);
    const outcomes: string[] = [];
    const outsideChanged = async (): Promise<boolean> => (await readFile(outsideTarget, 'utf8')) !== 'A-B\n';
    const raced = (): number => outcomes.filter((content) => content === CAUGHT).length;
    const edited = (): boolean => outcomes.some((content) => content.startsWith('edited d/target'));
    while (
      outcomes.length < MIN_CALLS ||
      ((raced() < MIN_RACED || !edited()) && !(await outsideChanged()) && outcomes.length < MAX_CALLS)
    ) {
      // Half turn A into B, half B back into A, so edits keep landing inside while `d` flips.
      const results = await Promise.all(
        Array.from({ length: BATCH }, (_, index) =>
          ws.run(editFileTool, {
            path: 'd/target',
            old_text: index % 2 === 0 ? 'A' : 'B',
            new_text: index % 2 === 0 ? 'B' : 'A',
          }),
        ),
      );
      outcomes.push(...results.map((result) => result.content));
    }
    flipper?.kill('SIGKILL');
    expect(await readFile(outsideTarget, 'utf8')).toBe('A-B\n');
    // No temporary file was left (or renamed) outside either.
    expect((await readdir(ws.outside)).sort()).toEqual(before);
    expect(raced()).toBeGreaterThanOrEqual(MIN_RACED);
    expect(edited()).toBe(true);
    expect(outcomes.filter((content) => content.includes('unexpectedly'))).toEqual([]);
  }, 30_000);
});
