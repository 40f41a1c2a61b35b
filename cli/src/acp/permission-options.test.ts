import { describe, expect, it } from 'vitest';
import type { AskAnswer, AskedCall } from '@cw/core';
import { readAnswer } from '../render/approval-answers.js';
import { answerOf, permissionOptions } from './permission-options.js';

const shell: AskedCall = { id: 'c1', name: 'shell', summary: 'npm test', arguments: '{}', rule: 'shell(npm test)' };
const mcp: AskedCall = { ...shell, name: 'mcp__files__write_file', server: 'files', rule: 'mcp__files__write_file' };
const selected = (optionId: string, meta?: Record<string, unknown>) => ({
  outcome: { outcome: 'selected' as const, optionId, ...(meta ? { _meta: meta } : {}) },
});

/** The answers a call's permission options hand to the core, in option order. */
const acpAnswers = (call: AskedCall): AskAnswer[] =>
  permissionOptions(call).map((option) => answerOf(selected(option.optionId)));
/** The answers the terminal hosts read for the keys they offer. */
const terminalAnswers = (call: AskedCall): (AskAnswer | null)[] =>
  ['y', 'a', 'w', 's', 'n'].map((key) =>
    readAnswer(key, { rule: call.rule !== undefined, ...(call.server ? { server: call.server } : {}) }),
  );

describe('the ACP permission options', () => {
  it('are the answers cw send and cw chat offer, for a command and for an MCP call', () => {
    for (const call of [shell, mcp])
      expect(new Set(acpAnswers(call))).toEqual(new Set(terminalAnswers(call).filter((answer) => answer !== null)));
    expect(acpAnswers(mcp)).toEqual(['yes', 'always', 'always-server', 'workspace', 'no']);
    expect(acpAnswers({ ...shell, rule: undefined } as AskedCall)).toEqual(['yes', 'always', 'no']);
  });

  it('a rejection may carry a reason; a cancelled or unknown outcome allows nothing', () => {
    expect(answerOf(selected('reject_once', { reason: 'not that file' }))).toEqual({
      answer: 'no',
      reason: 'not that file',
    });
    expect(answerOf(selected('allow_once', { reason: 'ignored' }))).toBe('yes');
    expect(answerOf({ outcome: { outcome: 'cancelled' } })).toBe('no');
    expect(answerOf(selected('allow_everything'))).toBe('no');
  });
});
