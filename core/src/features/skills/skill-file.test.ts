import { describe, expect, it } from 'vitest';
import { parseSkillFile, SkillFileError } from './skill-file.js';

const skill = (front: string, body = 'Do the thing.\n'): string => `---\n${front}\n---\n\n${body}`;

describe('parseSkillFile', () => {
  it('reads name, description and the instructions after the front matter', () => {
    expect(parseSkillFile(skill('name: review\ndescription: Reviews a diff.'), 'review')).toEqual({
      name: 'review',
      description: 'Reviews a diff.',
      body: 'Do the thing.\n',
    });
  });

  it('takes quoted and block values, skips nested keys and comments', () => {
    const text = skill(
      [
        '# a comment',
        'name: "review"',
        'description: >',
        '  Reviews a diff',
        '  before it lands.',
        'license: MIT',
        'metadata:',
        '  author: someone',
        "allowed-tools: 'Read Grep'",
      ].join('\n'),
    );
    const parsed = parseSkillFile(text, 'review');
    expect(parsed.description).toBe('Reviews a diff before it lands.');
    expect(parsed.name).toBe('review');
  });

  it.each([
    ['no front matter', 'just text\n', 'has no front matter'],
    ['unclosed front matter', '---\nname: review\n', 'not closed'],
    ['no name', skill('description: d'), 'has no name'],
    ['a bad name', skill('name: Review_It\ndescription: d'), 'name must be'],
    ['a name unlike its folder', skill('name: other\ndescription: d'), 'differs from its folder'],
    ['no description', skill('name: review'), 'has no description'],
    ['an empty description', skill('name: review\ndescription: ""'), 'has no description'],
    ['a line that is not key: value', skill('name: review\n- item'), 'key: value'],
    ['an unclosed quote', skill('name: review\ndescription: "open'), 'unclosed quote'],
    ['a repeated key', skill('name: review\nname: review\ndescription: d'), 'repeats a key'],
    ['a long description', skill(`name: review\ndescription: ${'d'.repeat(1025)}`), 'longer than 1024'],
  ])('refuses %s', (_what, text, problem) => {
    expect(() => parseSkillFile(text, 'review')).toThrow(SkillFileError);
    expect(() => parseSkillFile(text, 'review')).toThrow(problem);
  });
});
