import { isIPv4 as nodeIsIPv4 } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIPv4 } from './ipv4.js';

const part = fc.oneof(
  fc.nat({ max: 300 }).map(String),
  fc.nat({ max: 99 }).map((n) => `0${n}`),
  fc.constantFrom('', '-1', '1a', ' 1', '256', '00', '1e2', '０'),
);

describe('isIPv4', () => {
  it('agrees with node:net on dotted quads, near misses and arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(part, { minLength: 3, maxLength: 5 }).map((parts) => parts.join('.')),
          fc.string(),
          fc.ipV4(),
          fc.ipV6(),
        ),
        (text) => {
          expect(isIPv4(text)).toBe(nodeIsIPv4(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each(['127.0.0.1', '0.0.0.0', '255.255.255.255', '10.1.2.3'])('accepts %s', (text) => {
    expect(isIPv4(text)).toBe(true);
  });

  it.each(['127.0.0.01', '256.1.1.1', '1.2.3', '1.2.3.4.', '1.2.3.4\n', '::1', 'localhost'])('refuses %j', (text) => {
    expect(isIPv4(text)).toBe(false);
  });
});
