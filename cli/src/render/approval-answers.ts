import type { AskAnswer } from '@cw/core';

// The answers every terminal host offers to an approval (docs/agent-loop.md, "Answers"): cw send on
// a terminal and cw chat read the same keys and hand the same answer to the core's approval store.

/** Which answers a call offers: `always this server` for an MCP call, `workspace` when it has an allow rule. */
export interface AnswerOffer {
  /** The MCP server's name, made printable by the caller; absent for other tools. */
  readonly server?: string;
  readonly rule: boolean;
}

/** The offered answers, as the question ends. */
export function answerChoices(offer: AnswerOffer): string {
  return [
    '[y]es',
    '[n]o (n: why)',
    '[a]lways this tool',
    ...(offer.rule ? ['[w]orkspace: always allow this here'] : []),
    ...(offer.server === undefined ? [] : [`always this [s]erver (${offer.server})`]),
  ].join(' / ');
}

/**
 * Reads a typed answer; null when it is none of the offered ones (the question is asked again).
 * Enter alone is no; `n: why` or `n why` refuses and tells the model why.
 */
export function readAnswer(typed: string, offer: AnswerOffer): AskAnswer | null {
  const trimmed = typed.trim();
  const refusal = /^no?(?:\s*[:,]\s*|\s+)(\S[\s\S]*)$/i.exec(trimmed);
  if (refusal !== null) return { answer: 'no', reason: refusal[1] as string };
  const answer = trimmed.toLowerCase().replace(/\s*[:,]$/, '');
  if (answer === 'y' || answer === 'yes') return 'yes';
  if (answer === 'n' || answer === 'no' || answer === '') return 'no';
  if (answer === 'a' || answer === 'always') return 'always';
  if (offer.rule && (answer === 'w' || answer === 'workspace')) return 'workspace';
  if (offer.server !== undefined && (answer === 's' || answer === 'server')) return 'always-server';
  return null;
}

/** How an answer is printed in cw's own words (stream-json's `approval` line). */
export function answerWord(answer: AskAnswer): 'yes' | 'no' | 'always' | 'always-server' | 'workspace' {
  return typeof answer === 'object' ? 'no' : answer;
}
