import { describe, expect, it } from 'vitest';
import { answeredCandidate, candidatesOf, classifierPrompt } from './classify-route.js';

const candidates = candidatesOf({
  classifier_route: 'sorter',
  candidates: ['quick', { route: 'deep', when: 'hard work' }, 'quick', 'deep-beta'],
});

describe('auto routing classification', () => {
  it('lists each candidate once, with its when words, and the request last', () => {
    expect(candidates.map((candidate) => candidate.route)).toEqual(['quick', 'deep', 'deep-beta']);
    const prompt = classifierPrompt(candidates, 'fix it');
    expect(prompt).toContain('- quick\n- deep: hard work\n- deep-beta\n');
    expect(prompt.endsWith('<request>\nfix it\n</request>')).toBe(true);
  });

  it.each([
    ['deep', 'deep'],
    [' `deep-beta`. ', 'deep-beta'],
    ['"quick"', 'quick'],
    ['I would use deep here', 'deep'],
    ['deep-beta fits best', 'deep-beta'],
  ])('reads %j as %s', (answer, route) => {
    expect(answeredCandidate(candidates, answer)).toBe(route);
  });

  it.each(['', 'none of them', 'quick or deep', 'deeper'])('names no single candidate in %j', (answer) => {
    expect(answeredCandidate(candidates, answer)).toBeNull();
  });
});
