import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeLine, workspacePaths } from './chat-completer.js';

let workspace = '';
const source = () => ({ workspace, routes: () => ['deepseek', 'fault', 'openrouter'] });

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'cw-completer-'));
  await mkdir(join(workspace, 'src', 'chat'), { recursive: true });
  await writeFile(join(workspace, 'src', 'main.ts'), '');
  await writeFile(join(workspace, 'README.md'), '');
  await writeFile(join(workspace, '.env'), 'SECRET=1');
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe('completeLine', () => {
  it('completes a command name, with a space when only one fits', async () => {
    expect(await completeLine('/pre', source())).toEqual([['/preview '], '/pre']);
    expect(await completeLine('/re', source())).toEqual([['/reasoning', '/resume'], '/re']);
  });

  it('completes the values of /reasoning, /approval and /route', async () => {
    expect(await completeLine('/reasoning h', source())).toEqual([['high'], 'h']);
    expect(await completeLine('/approval ', source())).toEqual([['never', 'read-only', 'workspace', 'ask'], '']);
    expect(await completeLine('/route f', source())).toEqual([['fault'], 'f']);
  });

  it('completes @ paths in the workspace, folders with a slash', async () => {
    expect(await completeLine('look at @sr', source())).toEqual([['@src/'], '@sr']);
    expect(await completeLine('look at @src/', source())).toEqual([['@src/chat/', '@src/main.ts'], '@src/']);
    expect(await completeLine('@', source())).toEqual([['@README.md', '@src/'], '@']);
  });

  it('leaves other text alone', async () => {
    expect(await completeLine('hello wor', source())).toEqual([[], 'hello wor']);
    expect(await completeLine('mail me@exa', source())).toEqual([[], 'mail me@exa']);
  });
});

describe('workspacePaths', () => {
  it('shows hidden entries only when a dot is typed', async () => {
    expect(await workspacePaths(workspace, '')).not.toContain('.env');
    expect(await workspacePaths(workspace, '.e')).toEqual(['.env']);
  });

  it('offers nothing outside the workspace', async () => {
    expect(await workspacePaths(workspace, '../')).toEqual([]);
    expect(await workspacePaths(workspace, 'src/../../')).toEqual([]);
  });
});
