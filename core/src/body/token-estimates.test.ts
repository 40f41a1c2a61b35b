import { describe, expect, it } from 'vitest';
import type { ByteClasses } from './byte-classes.js';
import { estimateTokens, inputBudgetCeiling, inputHeadroom, outputRoomInWindow } from './token-estimates.js';

const classes = (overrides: Partial<ByteClasses>): ByteClasses => ({
  body: 0,
  system: 0,
  toolSchemas: 0,
  messages: 0,
  messageCount: 0,
  toolResults: 0,
  attachments: 0,
  attachmentCount: 0,
  framing: 0,
  ...overrides,
});

describe('offline estimates', () => {
  it('TE-02: ceil(bytes/4) per class; the total is the whole body plus a 5% margin', () => {
    const estimate = estimateTokens(
      classes({ body: 348, system: 50, toolSchemas: 53, messages: 117, toolResults: 66, framing: 128 }),
    );
    expect(estimate).toEqual({
      basis: 'offline-estimate',
      system: 13,
      tool_schemas: 14,
      messages: 30,
      tool_results: 17,
      attachments: 0,
      framing: 32,
      total_conservative: 91,
    });
  });

  it('the total comes from the whole body, not from the sum of rounded classes', () => {
    const estimate = estimateTokens(classes({ body: 4, system: 1, toolSchemas: 1, messages: 1, framing: 1 }));
    expect(estimate.system + estimate.tool_schemas + estimate.messages + estimate.framing).toBe(4);
    expect(estimate.total_conservative).toBe(1);
  });
});

describe('input budget ceiling', () => {
  const cases: [string, number, number, number | null, number][] = [
    ['HB-03 a 1M window with a 65,536 output cap', 1_000_000, 65_536, null, 933_440],
    ['HB-04 262,144 window, 32,768 output', 262_144, 32_768, null, 228_352],
    ['HB-06 capped by a route input limit', 1_000_000, 64_000, 128_000, 128_000],
    ['HB-07 a small window, its reservation fitted first, leaves 1,024 input tokens', 8_192, 6_144, null, 1_024],
    ['HB-08 a 512 window leaves nothing', 512, 1, null, 0],
    ['the ceiling subtracts exactly the reservation it is given', 2_000, 1, null, 975],
    ['HB-09 1,048,576 window, 64,000 output', 1_048_576, 64_000, null, 1_048_576 - 64_000 - 1_024],
    ['HB-10 an empty window', 0, 8_192, null, 0],
  ];
  for (const [name, window, output, inputLimit, expected] of cases) {
    it(name, () => expect(inputBudgetCeiling(window, output, inputLimit)).toBe(expected));
  }
});

describe('output room in a window', () => {
  it('HB-07 a window of 8,192 leaves 6,144 for output', () => expect(outputRoomInWindow(8_192)).toBe(6_144));
  it('a window too small for the headroom and the smallest input leaves none', () =>
    expect(outputRoomInWindow(2_000)).toBe(0));
});

describe('headroom is signed', () => {
  const estimate = estimateTokens(classes({ body: 280 }));
  it('one token over the ceiling is -1, not 0', () =>
    expect(inputHeadroom(estimate.total_conservative - 1, estimate)).toBe(-1));
  it('exactly at the ceiling is 0 (fits)', () => expect(inputHeadroom(estimate.total_conservative, estimate)).toBe(0));
  it('far over goes far negative', () =>
    expect(inputHeadroom(1, estimateTokens(classes({ body: 168_000 })))).toBe(1 - 44_100));
});
