import { describe, expect, it } from 'vitest';
import type { SandboxPolicy } from './sandbox-policy.js';
import { sandboxExecArguments, seatbeltProfile } from './seatbelt-profile.js';

const policy: SandboxPolicy = {
  writable: ['/Users/me/project "quoted"'],
  hidden: [
    { path: '/Users/me/.ssh', label: '~/.ssh' },
    { path: '/Users/me/.netrc', label: '~/.netrc' },
  ],
  readOnly: ['/Users/me/project "quoted"/.git/hooks'],
  network: { kind: 'proxy', bridged: false, port: 41234 },
  cwd: '/Users/me/project "quoted"',
};
const kinds = new Map<string, 'file' | 'folder'>([
  ['/Users/me/.ssh', 'folder'],
  ['/Users/me/.netrc', 'file'],
]);

describe('seatbeltProfile', () => {
  it('denies by default, denies hidden and read-only paths after the allows, and keeps paths out of the text', () => {
    const { profile, parameters } = seatbeltProfile(policy, kinds);
    expect(profile.startsWith('(version 1)\n(deny default)\n')).toBe(true);
    expect(profile).not.toContain('/Users/me');
    const lines = profile.trim().split('\n');
    const allowWrite = lines.findIndex((line) => line.startsWith('(allow file-write* (subpath'));
    const hideSsh = lines.findIndex((line) => line.includes('(deny file-read* file-write* (subpath'));
    const hideNetrc = lines.findIndex((line) => line.includes('(deny file-read* file-write* (literal'));
    const hooks = lines.findIndex((line) => line.startsWith('(deny file-write*'));
    for (const index of [hideSsh, hideNetrc, hooks]) expect(index).toBeGreaterThan(allowWrite);
    expect(profile).toContain('(allow network-outbound (remote ip "localhost:41234"))');
    expect(profile).not.toContain('(allow network*)');
    expect(parameters.map(([, value]) => value)).toContain('/Users/me/.ssh');
  });

  it('denies writes to .git, renaming and creating it included, then allows back only what a commit writes', () => {
    const git = '/Users/me/project "quoted"/.git';
    const { profile, parameters } = seatbeltProfile(
      { ...policy, git: { mounts: [], readOnly: [git], commitFolder: git } },
      kinds,
    );
    const lines = profile.trim().split('\n');
    const named = (path: string): string => `(param "${parameters.find(([, value]) => value === path)?.[0]}")`;
    const deny = lines.indexOf(`(deny file-write* (subpath ${named(git)}))`);
    const allow = lines.findIndex((line) => line.includes(`(subpath ${named(`${git}/objects`)})`));
    expect(deny).toBeGreaterThan(lines.findIndex((line) => line.startsWith('(allow file-write* (subpath')));
    expect(allow).toBeGreaterThan(deny);
    expect(lines[allow]).toContain(`(literal ${named(`${git}/index.lock`)})`);
    expect(lines[allow]).toContain(`(subpath ${named(`${git}/HEAD`)})`);
    expect(parameters.map(([, value]) => value)).not.toContain(`${git}/config`);
    expect(profile).not.toContain('/Users/me');
  });

  it('passes every path as a -D parameter before the profile and the command', () => {
    const profile = seatbeltProfile({ ...policy, network: { kind: 'off' } }, kinds);
    const args = sandboxExecArguments(profile, ['/bin/sh', '-c', 'ls']);
    expect(args.slice(0, 2)).toEqual(['-D', 'P0=/Users/me/project "quoted"']);
    expect(args.slice(-5)).toEqual(['-p', profile.profile, '/bin/sh', '-c', 'ls']);
    expect(profile.profile).not.toContain('network');
  });
});
