import { describe, expect, it } from 'vitest';
import { safeErrorText, terminalSafe } from '@cw/core';
import { approvalChoiceOf, approvalQuestion, argumentsPreview, askAnswerOf } from './approval-question.js';

describe('the approval question', () => {
  it('reads the answers; "server" only for an MCP tool; Enter alone is no', () => {
    expect(approvalChoiceOf('Y', false)).toBe('yes');
    expect(approvalChoiceOf('', false)).toBe('no');
    expect(approvalChoiceOf('always', false)).toBe('always-tool');
    expect(approvalChoiceOf('s', false)).toBeNull();
    expect(approvalChoiceOf('s', true)).toBe('always-server');
    expect(approvalChoiceOf('maybe', true)).toBeNull();
    expect(['yes', 'no', 'always-tool', 'always-server'].map((choice) => askAnswerOf(choice as never))).toEqual([
      'yes',
      'no',
      'always',
      'yes',
    ]);
  });

  it('names the call by its own label; an MCP call shows its arguments and its server', () => {
    expect(approvalQuestion({ name: 'shell', summary: 'npm test' }, null, terminalSafe)).toBe(
      'run shell npm test?\n[y]es / [n]o / [a]lways this tool: ',
    );
    const mcp = approvalQuestion(
      { name: 'mcp__files__write', summary: 'files/write' },
      { server: 'files', preview: 'name: notes' },
      terminalSafe,
    );
    expect(mcp).toContain('arguments: name: notes');
    expect(mcp).toContain('always this [s]erver (files)');
  });

  it('strips terminal controls from what the model named', () => {
    const question = approvalQuestion({ name: 'shell', summary: 'echo \u001b[2Jhi' }, null, terminalSafe);
    expect(question).not.toContain('\u001b');
  });
});

describe('argumentsPreview', () => {
  it('shows plain values as key: value', () => {
    expect(argumentsPreview('{"query":"open issues","limit":5}', safeErrorText)).toBe('query: open issues, limit: 5');
  });

  it('withholds what looks like a secret or a path, and stays bounded', () => {
    const secret = `sk-${'a1B2'.repeat(10)}`;
    const preview = argumentsPreview(
      JSON.stringify({ token: secret, file: '/home/someone/.ssh/id_rsa' }),
      safeErrorText,
    );
    expect(preview).not.toContain(secret);
    expect(preview).not.toContain('/home/someone');
    expect(argumentsPreview(JSON.stringify({ text: 'word '.repeat(500) }), safeErrorText).length).toBeLessThanOrEqual(
      240,
    );
  });

  it('says so when the arguments are not a JSON object', () => {
    expect(argumentsPreview('not json', safeErrorText)).toBe('(not JSON)');
    expect(argumentsPreview('[1,2]', safeErrorText)).toBe('(not an object)');
    expect(argumentsPreview('{}', safeErrorText)).toBe('(none)');
  });
});
