import { describe, expect, it } from 'vitest';
import { bwrapArguments } from './bwrap-arguments.js';
import type { SandboxPolicy } from './sandbox-policy.js';

const policy = (network: SandboxPolicy['network']): SandboxPolicy => ({
  writable: ['/w', '/t'],
  hidden: [
    { path: '/h/.ssh', label: '~/.ssh' },
    { path: '/h/.netrc', label: '~/.netrc' },
    { path: '/w/secrets', label: 'deny_read entry 1' },
  ],
  readOnly: ['/w/.git/hooks'],
  network,
  cwd: '/w/sub',
});
const kinds = new Map<string, 'file' | 'folder'>([
  ['/h/.ssh', 'folder'],
  ['/h/.netrc', 'file'],
  ['/w/secrets', 'folder'],
]);

describe('bwrapArguments', () => {
  it('mounts the root read-only, then the writable folders, then hides and protects paths over them', () => {
    const args = bwrapArguments(policy({ kind: 'off' }), kinds, ['/bin/sh', '-c', 'ls']);
    const at = (...words: string[]): number =>
      args.findIndex((_, index) => words.every((word, offset) => args[index + offset] === word));
    expect(at('--ro-bind', '/', '/')).toBeGreaterThan(-1);
    expect(at('--bind', '/w', '/w')).toBeGreaterThan(at('--ro-bind', '/', '/'));
    // A hidden path inside the workspace stays hidden: its mount comes after the workspace's.
    expect(at('--tmpfs', '/w/secrets')).toBeGreaterThan(at('--bind', '/w', '/w'));
    expect(at('--remount-ro', '/w/secrets')).toBeGreaterThan(at('--tmpfs', '/w/secrets'));
    expect(at('--ro-bind', '/dev/null', '/h/.netrc')).toBeGreaterThan(-1);
    expect(at('--ro-bind', '/w/.git/hooks', '/w/.git/hooks')).toBeGreaterThan(at('--bind', '/w', '/w'));
    expect(args).toContain('--unshare-net');
    expect(args).toContain('--die-with-parent');
    expect(args).toContain('--new-session');
    expect(args.slice(at('--chdir', '/w/sub'))).toEqual(['--chdir', '/w/sub', '--', '/bin/sh', '-c', 'ls']);
  });

  it("binds the workspace's .git staging folder over the workspace, then the real parts back, before hidden paths", () => {
    const git = {
      mounts: [
        { source: '/s', target: '/w/.git', writable: true },
        { source: '/w/.git/objects', target: '/w/.git/objects', writable: true },
        { source: '/w/.git/config', target: '/w/.git/config', writable: false },
      ],
      readOnly: ['/w/.git'],
      commitFolder: '/w/.git',
    };
    const args = bwrapArguments({ ...policy({ kind: 'off' }), git }, kinds, ['x']);
    const at = (...words: string[]): number =>
      args.findIndex((_, index) => words.every((word, offset) => args[index + offset] === word));
    expect(at('--bind', '/s', '/w/.git')).toBeGreaterThan(at('--bind', '/t', '/t'));
    expect(at('--bind', '/w/.git/objects', '/w/.git/objects')).toBeGreaterThan(at('--bind', '/s', '/w/.git'));
    expect(at('--ro-bind', '/w/.git/config', '/w/.git/config')).toBeGreaterThan(
      at('--bind', '/w/.git/objects', '/w/.git/objects'),
    );
    expect(at('--tmpfs', '/w/secrets')).toBeGreaterThan(at('--ro-bind', '/w/.git/config', '/w/.git/config'));
  });

  it('keeps the host network only when the policy says on; an allowlist binds no socket folder in', () => {
    expect(bwrapArguments(policy({ kind: 'on' }), kinds, ['x'])).not.toContain('--unshare-net');
    const proxied = bwrapArguments(policy({ kind: 'proxy', bridged: true, port: 3128 }), kinds, ['x']);
    expect(proxied).toContain('--unshare-net');
    expect(proxied.filter((word) => word === '--bind')).toHaveLength(2);
  });

  it('drops every capability and installs the Unix-socket filter from fd 3, before the command', () => {
    const args = bwrapArguments(policy({ kind: 'off' }), kinds, ['x']);
    const end = args.indexOf('--');
    expect(args.indexOf('--cap-drop')).toBeLessThan(end);
    expect(args[args.indexOf('--cap-drop') + 1]).toBe('ALL');
    expect(args[args.indexOf('--seccomp') + 1]).toBe('3');
    expect(args.indexOf('--seccomp')).toBeLessThan(end);
  });
});
