import { describe, expect, it } from 'vitest';
import type { CapabilityRow } from './capability-row.js';
import { wireModelFor } from './resolve-route.js';

const row = { model: { default: 'm', wire_map: { 'old-name': 'new-name' }, catalog: [] } } as unknown as CapabilityRow;

describe('wireModelFor', () => {
  it('maps a model through the row', () => {
    expect(wireModelFor({ row, model: 'old-name', definedBy: 'plugin-row' })).toBe('new-name');
    expect(wireModelFor({ row, model: 'other', definedBy: 'plugin-row' })).toBe('other');
  });

  it.each(['constructor', 'hasOwnProperty', '__proto__', 'toString'])(
    'passes %s through instead of finding an Object.prototype member',
    (model) => {
      expect(wireModelFor({ row, model, definedBy: 'plugin-row' })).toBe(model);
    },
  );
});
