import { describe, expect, it } from 'vitest';
import { terminalSafe } from '@cw/core';
import { answerChoices, readAnswer } from '../render/approval-answers.js';
import { approvalQuestion } from './approval-question.js';

const call = { id: 'c1', name: 'shell', summary: 'npm test', arguments: '{}', rule: 'shell(npm test)' };

describe('the approval question', () => {
  it('reads the answers; "server" only for an MCP tool, "workspace" only with a rule; Enter alone is no', () => {
    const plain = { rule: false };
    expect(readAnswer('Y', plain)).toBe('yes');
    expect(readAnswer('', plain)).toBe('no');
    expect(readAnswer('always', plain)).toBe('always');
    expect(readAnswer('s', plain)).toBeNull();
    expect(readAnswer('w', plain)).toBeNull();
    expect(readAnswer('w', { rule: true })).toBe('workspace');
    expect(readAnswer('s', { rule: true, server: 'files' })).toBe('always-server');
    expect(readAnswer('maybe', { rule: true, server: 'files' })).toBeNull();
  });

  it('a refusal may say why: n: reason, or n then the reason', () => {
    expect(readAnswer('n: use the other file', { rule: false })).toEqual({
      answer: 'no',
      reason: 'use the other file',
    });
    expect(readAnswer('no, not now', { rule: false })).toEqual({ answer: 'no', reason: 'not now' });
    expect(readAnswer('n wrong folder', { rule: false })).toEqual({ answer: 'no', reason: 'wrong folder' });
    expect(readAnswer('n:', { rule: false })).toBe('no');
    expect(readAnswer('nope', { rule: false })).toBeNull();
  });

  it('names the call by its own label and offers the same answers as cw send', () => {
    expect(approvalQuestion(call, terminalSafe)).toBe(
      'run shell npm test?\n[y]es / [n]o (n: why) / [a]lways this tool / [w]orkspace: always allow this here: ',
    );
    expect(answerChoices({ rule: true, server: 'files' })).toMatch(/always this \[s\]erver \(files\)$/);
  });

  it('an MCP call shows the server hints and its arguments (the core lines), and its server', () => {
    const mcp = approvalQuestion(
      {
        ...call,
        name: 'mcp__files__write',
        summary: 'files/write',
        server: 'files',
        rule: 'mcp__files__write',
        details: ['the server gives no hints about this tool', 'path: "notes.txt"', 'content: "hi"'],
      },
      terminalSafe,
    );
    expect(mcp).toContain('arguments: path: "notes.txt", content: "hi"');
    expect(mcp).toContain('always this [s]erver (files): ');
  });

  it('strips terminal controls from what the model named', () => {
    const question = approvalQuestion({ ...call, summary: 'echo \u001b[2Jhi' }, terminalSafe);
    expect(question).not.toContain('\u001b');
  });
});
