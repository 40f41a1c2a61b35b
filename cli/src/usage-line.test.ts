import { describe, expect, it } from 'vitest';
import { usageLine } from './usage-line.js';

describe('usage line', () => {
  it('says the summed tokens and how many requests they cover, and which reported none', () => {
    expect(usageLine({ input_tokens: 303, output_tokens: 21, steps_without_usage: 0 }, 3)).toBe(
      'cw: usage: 303 input tokens, 21 output tokens over 3 requests\n',
    );
    expect(usageLine({ input_tokens: 5, output_tokens: 1, steps_without_usage: 1 }, 1)).toBe(
      'cw: usage: 5 input tokens, 1 output tokens over 1 request; 1 reported no usage and is not counted\n',
    );
  });
});
