import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { narrowCatalog, surfaceBudget } from './narrow-catalog.js';

const tool = (name: string, deferred = false): ToolDefinition => ({
  name,
  description: `${name} tool`,
  input_schema: { type: 'object' },
  origin: { kind: 'plugin', plugin: '@cw/test' },
  deferred,
});
const CATALOG = [tool('read'), tool('edit'), tool('fetch', true), tool('shell')];
const names = (tools: readonly ToolDefinition[]): string[] => tools.map((entry) => entry.name);

describe('narrowCatalog', () => {
  it('no gates, standard: every non-deferred tool, in catalog order', () => {
    expect(names(narrowCatalog(CATALOG, undefined, 'standard').active)).toEqual(['read', 'edit', 'shell']);
  });

  it('full sends deferred tools up front', () => {
    expect(names(narrowCatalog(CATALOG, { surface: 'full' }, 'full').active)).toEqual([
      'read',
      'edit',
      'fetch',
      'shell',
    ]);
  });

  it('the allow gate keeps only named tools; unknown names are ignored', () => {
    const narrowed = narrowCatalog(CATALOG, { surface: 'standard', allow: ['shell', 'read', 'ghost'] }, 'standard');
    expect(names(narrowed.active)).toEqual(['read', 'shell']);
    expect(narrowed.gatedOutCount).toBe(2);
  });

  it('the deny gate wins over the allow gate', () => {
    const narrowed = narrowCatalog(
      CATALOG,
      { surface: 'standard', allow: ['read', 'edit'], deny: ['edit'] },
      'standard',
    );
    expect(names(narrowed.active)).toEqual(['read']);
  });

  it('an empty allow gate sends nothing', () => {
    expect(narrowCatalog(CATALOG, { surface: 'standard', allow: [] }, 'full').active).toEqual([]);
  });

  it('never mutates the catalog', () => {
    const before = JSON.stringify(CATALOG);
    narrowCatalog(CATALOG, { surface: 'full', deny: ['read'] }, 'full');
    expect(JSON.stringify(CATALOG)).toBe(before);
  });

  it('the budget defaults to standard', () => {
    expect(surfaceBudget(undefined)).toBe('standard');
    expect(surfaceBudget({ surface: 'full' })).toBe('full');
  });
});
