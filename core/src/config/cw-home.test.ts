import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// homedir() is read through node:os, so each test points it at a fresh folder.
let fakeHome = '';
vi.mock('node:os', async (importOriginal) => ({
  ...(await importOriginal<typeof import('node:os')>()),
  homedir: () => fakeHome,
}));
const { cwHome, cwPaths } = await import('./cw-home.js');

describe('the cw home', () => {
  beforeEach(async () => {
    fakeHome = await mkdtemp(join(tmpdir(), 'cw-home-test-'));
  });
  afterEach(async () => {
    await rm(fakeHome, { recursive: true, force: true });
  });

  it('is CW_HOME when set, with plugins inside it unless CW_DATA_DIR says otherwise', () => {
    expect(cwPaths({ CW_HOME: '/x/cw' })).toMatchObject({
      home: '/x/cw',
      homeSource: 'CW_HOME',
      configFile: join('/x/cw', 'config.json'),
      sessions: join('/x/cw', 'sessions'),
      plugins: join('/x/cw', 'plugins'),
      pluginsSource: 'home',
    });
    expect(cwPaths({ CW_HOME: '/x/cw', CW_DATA_DIR: '/d' })).toMatchObject({
      plugins: '/d',
      pluginsSource: 'CW_DATA_DIR',
    });
  });

  it('defaults to the XDG config folder, and follows XDG_CONFIG_HOME when it is absolute', () => {
    expect(cwPaths({})).toMatchObject({ home: join(fakeHome, '.config', 'cw'), homeSource: 'default' });
    expect(cwHome({ XDG_CONFIG_HOME: '/xdg' })).toBe(join('/xdg', 'cw'));
    expect(cwHome({ XDG_CONFIG_HOME: 'relative' })).toBe(join(fakeHome, '.config', 'cw'));
    expect(cwHome({ CW_HOME: '  ' })).toBe(join(fakeHome, '.config', 'cw'));
  });

  it('keeps an existing ~/.cw, and plugins already installed in the XDG data folder', async () => {
    await mkdir(join(fakeHome, '.cw'));
    await mkdir(join(fakeHome, '.local', 'share', 'cw'), { recursive: true });
    await writeFile(join(fakeHome, '.local', 'share', 'cw', 'package.json'), '{}');
    expect(cwPaths({ XDG_CONFIG_HOME: '/xdg' })).toMatchObject({
      home: join(fakeHome, '.cw'),
      homeSource: 'legacy ~/.cw',
      plugins: join(fakeHome, '.local', 'share', 'cw'),
      pluginsSource: 'legacy XDG data folder',
    });
  });
});
