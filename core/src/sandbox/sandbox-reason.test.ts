import { describe, expect, it } from 'vitest';
import { sandboxReason } from './sandbox-reason.js';

const sandbox = {
  kind: 'bubblewrap',
  network: 'off' as const,
  hidden: [
    { path: '/home/someone/.ssh', label: '~/.ssh' },
    { path: '/home/someone/.config/cw', label: 'cw home' },
  ],
};

describe('sandboxReason', () => {
  it('names the refusal the output shows, and what the sandbox enforces, by label only', () => {
    const line = sandboxReason('sh: 1: cannot create /etc/x: Read-only file system\nexit code 2', sandbox);
    expect(line).toMatch(/^\[sandbox bubblewrap: a write outside the workspace was refused/);
    expect(line).toContain('hidden: ~/.ssh, cw home');
    expect(line).toContain('network off');
    expect(line).not.toContain('/home/someone');
    expect(line.split('\n')).toHaveLength(1);
  });

  it('says a refused connection is the sandbox when the network is off', () => {
    expect(sandboxReason('ECONNREFUSED', sandbox)).toContain('(sandbox.network is off)');
    expect(sandboxReason('ECONNREFUSED', { ...sandbox, network: 'allowlist' })).toContain('allowlist');
  });

  it('names a refused write inside .git, and a refused rename of .git, in the same one line', () => {
    const line = sandboxReason(
      "mv: cannot move '.git' to '.git.old': Device or resource busy\nsh: 1: cannot create .git/config: Read-only file system",
      sandbox,
    );
    expect(line).toContain('a write inside .git was refused');
    expect(line).toContain('.git cannot be renamed, removed or replaced');
    expect(line).not.toContain('outside the workspace was refused');
    expect(line.split('\n')).toHaveLength(1);
  });

  it('names a refused Unix socket, a refused fork and a file over the size limit', () => {
    for (const output of [
      'Error connecting to agent: Operation not permitted',
      'error connecting to /tmp/tmux-0/default (Operation not permitted)',
      'Error: connect EPERM /run/docker.sock',
    ]) {
      const line = sandboxReason(output, sandbox);
      expect(line, output).toContain('a Unix socket was refused');
      expect(line, output).not.toContain('hidden or read-only path');
    }
    expect(sandboxReason('/bin/sh: 0: Cannot fork', sandbox)).toContain('sandbox.limits.processes');
    expect(sandboxReason('bash: fork: retry: Resource temporarily unavailable', sandbox)).toContain('limits.processes');
    expect(sandboxReason('File size limit exceeded (core dumped)', sandbox)).toContain('sandbox.limits.file_size_mb');
    expect(sandboxReason('cat: x: Permission denied', sandbox)).not.toContain('Unix socket');
  });

  it('still states the rules when the output names no cause', () => {
    expect(sandboxReason('make: *** [all] Error 1', sandbox)).toMatch(/^\[sandbox bubblewrap: only the workspace/);
  });
});
