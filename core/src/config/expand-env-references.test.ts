import { describe, expect, it } from 'vitest';
import {
  envReferenceNames,
  expandEnvRecord,
  expandEnvReferences,
  hasMalformedEnvReference,
  McpEnvReferenceError,
} from './expand-env-references.js';

function caught(run: () => unknown): McpEnvReferenceError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(McpEnvReferenceError);
    return error as McpEnvReferenceError;
  }
  throw new Error('expected a throw');
}

describe('expandEnvReferences', () => {
  it('replaces every reference with the variable value and keeps the rest byte for byte', () => {
    const env = { GITHUB_TOKEN: 'ghp_value', EMPTY: '' };
    expect(expandEnvReferences('Bearer ${env:GITHUB_TOKEN}', env)).toBe('Bearer ghp_value');
    expect(expandEnvReferences('${env:GITHUB_TOKEN}:${env:GITHUB_TOKEN}', env)).toBe('ghp_value:ghp_value');
    expect(expandEnvReferences('a${env:EMPTY}b', env)).toBe('ab');
    expect(expandEnvReferences('no references, $HOME, ${HOME}', env)).toBe('no references, $HOME, ${HOME}');
  });

  it('does not expand a value a second time', () => {
    expect(expandEnvReferences('${env:A}', { A: '${env:B}', B: 'secret' })).toBe('${env:B}');
  });

  it('an unset variable is an error naming the variable, never a value', () => {
    const error = caught(() => expandEnvReferences('Bearer ${env:MISSING_TOKEN} ${env:SET}', { SET: 'hunter2-value' }));
    expect(error.variable).toBe('MISSING_TOKEN');
    expect(error.safeMessage).toContain('MISSING_TOKEN');
    expect(error.safeMessage).not.toContain('hunter2');
    expect(error.message).toBe(error.safeMessage);
  });

  it('only own properties count as set', () => {
    expect(() => expandEnvReferences('${env:toString}', {})).toThrow(McpEnvReferenceError);
  });

  it('a key-shaped variable name is fingerprinted in the message', () => {
    const name = 'ghp_FAKE0test0ONLY0not0a0real0token00000';
    const error = caught(() => expandEnvReferences(`\${env:${name}}`, {}));
    expect(error.safeMessage).not.toContain(name);
    expect(error.safeMessage).toMatch(/sha256:[0-9a-f]{12}/);
  });

  it('a malformed reference is an error that repeats nothing of the value', () => {
    for (const text of ['${env:}', '${env:1ABC}', 'x ${env:OPEN', '${env:A-B}']) {
      expect(hasMalformedEnvReference(text)).toBe(true);
      const error = caught(() => expandEnvReferences(text, { ABC: 'v', OPEN: 'v' }));
      expect(error.variable).toBeNull();
    }
    expect(hasMalformedEnvReference('Bearer ${env:T} and ${HOME}')).toBe(false);
  });
});

describe('envReferenceNames and expandEnvRecord', () => {
  it('lists each referenced name once, in order', () => {
    expect(envReferenceNames('${env:B} ${env:A} ${env:B}')).toEqual(['B', 'A']);
    expect(envReferenceNames('plain')).toEqual([]);
  });

  it('expands every value and keeps the keys', () => {
    expect(expandEnvRecord({ Authorization: 'Bearer ${env:T}', Accept: 'json' }, { T: 'tok' })).toEqual({
      Authorization: 'Bearer tok',
      Accept: 'json',
    });
  });
});
