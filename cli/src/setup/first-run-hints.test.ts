import { describe, expect, it } from 'vitest';
import { FIRST_RUN_HINTS, hintsFor } from './first-run-hints.js';

// The core's error as cw send meets it: only its name is what the hints key on.
const missingKey = Object.assign(new Error('set the environment variable DEEPSEEK_API_KEY'), {
  name: 'MissingApiKeyError',
});

describe('hintsFor', () => {
  it('follows a missing key with how to list other routes and add a local one', () => {
    expect(hintsFor(missingKey)).toBe(FIRST_RUN_HINTS);
    expect(FIRST_RUN_HINTS.join('\n')).toMatch(/cw routes lists them[\s\S]*cw routes add local --preset ollama/);
  });

  it('adds nothing to any other error', () => {
    expect(hintsFor(new Error('set the environment variable X'))).toEqual([]);
    expect(hintsFor('MissingApiKeyError')).toEqual([]);
  });
});
