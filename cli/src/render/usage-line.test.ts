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

  it('ends with what the turn cost and the session so far, when they are given', () => {
    const usage = { input_tokens: 1_234, output_tokens: 567, steps_without_usage: 0 };
    expect(usageLine(usage, 1, { cost: { usd: 0.012207 }, session_cost: { usd: 0.05, steps_without_cost: 0 } })).toBe(
      'cw: usage: 1234 input tokens, 567 output tokens over 1 request; cost $0.0122 (session $0.0500)\n',
    );
    expect(
      usageLine(usage, 1, {
        cost: { usd: null, reason: 'no-published-price' },
        session_cost: { usd: 0, steps_without_cost: 2 },
      }),
    ).toBe('cw: usage: 1234 input tokens, 567 output tokens over 1 request; cost unknown (no price for this model)\n');
    // Once some request of the session is priced, the total says how many it could not price.
    expect(
      usageLine(usage, 1, {
        cost: { usd: null, reason: 'usage-not-reported' },
        session_cost: { usd: 0.25, steps_without_cost: 1 },
      }),
    ).toBe(
      'cw: usage: 1234 input tokens, 567 output tokens over 1 request; cost unknown (no usage reported) (session $0.2500, 1 step(s) unpriced)\n',
    );
  });
});
