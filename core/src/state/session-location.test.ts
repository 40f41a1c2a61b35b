import { mkdtemp, rm, utimes, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { selectSession } from './select-session.js';
import { SessionKeyError, parseSessionKey, sessionFileOf, sessionKeyOf, workspaceKeyOf } from './session-location.js';
import { sessionPath } from './session-store.js';
import { sessionStateFile } from './session-state-file.js';

describe('session keys', () => {
  it('a workspace key is the folder name made safe and a hash of the path: two folders of one name differ', () => {
    const a = workspaceKeyOf('/home/ana/src/app');
    const b = workspaceKeyOf('/srv/build/app');
    expect(a).toMatch(/^app-[0-9a-f]{10}$/);
    expect(b).toMatch(/^app-[0-9a-f]{10}$/);
    expect(a).not.toBe(b);
    expect(workspaceKeyOf('/x/my project (2)')).toMatch(/^my_project__2_-[0-9a-f]{10}$/);
    expect(workspaceKeyOf('/')).toMatch(/^workspace-[0-9a-f]{10}$/);
    expect(a).not.toContain('/');
  });

  it('messages and every state file of a session resolve through one place, inside the sessions folder', () => {
    const key = sessionKeyOf('app-0123456789', 'work');
    expect(sessionPath('/h', key)).toBe(join('/h', 'sessions', 'app-0123456789', 'work.json'));
    expect(sessionStateFile('/h', key, 'goal.json')).toBe(join('/h', 'sessions', 'app-0123456789', 'work.goal.json'));
    expect(sessionFileOf('/h', key, '.json')).toBe(sessionPath('/h', key));
    // A bare name is a session kept by name only.
    expect(sessionPath('/h', 'default')).toBe(join('/h', 'sessions', 'default.json'));
    expect(parseSessionKey(key)).toEqual({ workspaceKey: 'app-0123456789', name: 'work' });
  });

  it.each(['../config', 'a/../../b', 'app-0123456789/../x', 'x/y/z', '', 'a.b', 'no-hash/name', '/abs'])(
    'refuses %j as a key: no name reaches outside the sessions folder',
    (key) => {
      expect(() => sessionPath('/h', key)).toThrow(SessionKeyError);
    },
  );
});

describe('selectSession', () => {
  let home = '';
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('new takes the first free sN; continue the newest; named and default as given; reads only', async () => {
    home = await mkdtemp(join(tmpdir(), 'cw-select-'));
    const ws = 'app-0123456789';
    const folder = join(home, 'sessions', ws);
    expect(await selectSession(home, ws, undefined, { kind: 'new' })).toEqual({
      name: 's1',
      key: `${ws}/s1`,
      fresh: true,
    });
    expect(await selectSession(home, ws, 'main', { kind: 'continue' })).toMatchObject({ name: 'main', fresh: false });
    await mkdir(folder, { recursive: true });
    for (const name of ['s1', 'older', 'newest']) await writeFile(join(folder, `${name}.json`), '{}');
    await writeFile(join(folder, 's2.goal.json'), '{}');
    await utimes(join(folder, 'older.json'), new Date(1_000), new Date(1_000));
    await utimes(join(folder, 's1.json'), new Date(2_000), new Date(2_000));
    expect((await selectSession(home, ws, undefined, { kind: 'new' })).name).toBe('s2');
    expect((await selectSession(home, ws, undefined, { kind: 'continue' })).name).toBe('newest');
    expect((await selectSession(home, ws, 'main', { kind: 'default' })).key).toBe(`${ws}/main`);
    expect((await selectSession(home, null, undefined, { kind: 'named', name: 'x' })).key).toBe('x');
    await expect(selectSession(home, ws, undefined, { kind: 'named', name: '../x' })).rejects.toMatchObject({
      exitCode: 2,
    });
  });
});
