import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../prompt/conversation.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import {
  DEFERRAL_THRESHOLD,
  deferCatalog,
  formatSearchResult,
  loadedToolNames,
  SEARCH_TOOLS_NAME,
  searchTools,
  searchToolsImplementation,
} from './defer-catalog.js';

const plugin = (name: string, deferred = false): ToolDefinition => ({
  name,
  description: `${name} tool`,
  input_schema: { type: 'object' },
  origin: { kind: 'plugin', plugin: '@cw/test' },
  deferred,
});
const mcp = (name: string, description = `${name} tool`): ToolDefinition => ({
  name,
  description,
  input_schema: { type: 'object' },
  origin: { kind: 'mcp', server: 's' },
  deferred: false,
});
const names = (tools: readonly ToolDefinition[]): string[] => tools.map((tool) => tool.name);
const PLUGINS = [plugin('read'), plugin('edit')];
const MCP = Array.from({ length: 6 }, (_unused, index) => mcp(`mcp__s__t${index}`));

const onServer = (server: string, count: number): ToolDefinition[] =>
  Array.from({ length: count }, (_unused, index) => ({
    ...mcp(`mcp__${server}__t${index}`),
    origin: { kind: 'mcp', server },
  }));

describe('deferCatalog', () => {
  it('shares the room among servers one tool each in turn, in config order, whatever their names', () => {
    // Catalog order is by name (aaa before zzz); config order puts zzz first.
    const catalog = [...PLUGINS, ...onServer('aaa', 10), ...onServer('mmm', 2), ...onServer('zzz', 10)];
    const split = deferCatalog(catalog, [], 9, [], ['zzz', 'mmm', 'aaa']);
    const upFront = names(split.upFront);
    expect(upFront.slice(0, 3)).toEqual(['read', 'edit', SEARCH_TOOLS_NAME]);
    // Six places: zzz, mmm, aaa, zzz, mmm, aaa; kept in catalog order.
    expect(upFront.slice(3)).toEqual([
      'mcp__aaa__t0',
      'mcp__aaa__t1',
      'mcp__mmm__t0',
      'mcp__mmm__t1',
      'mcp__zzz__t0',
      'mcp__zzz__t1',
    ]);
    // mmm runs out: the others share what is left, zzz first by config order.
    const wider = names(deferCatalog(catalog, [], 12, [], ['zzz', 'mmm', 'aaa']).upFront);
    const count = (server: string) => wider.filter((name) => name.startsWith(`mcp__${server}__`)).length;
    expect([count('zzz'), count('mmm'), count('aaa')]).toEqual([4, 2, 3]);
    expect(split.deferred).toHaveLength(22 - 6);
  });

  it('renaming servers does not change how many tools each sends', () => {
    const share = (first: string, second: string) => {
      const catalog = [...onServer(first, 50), ...onServer(second, 50)].sort((a, b) => (a.name < b.name ? -1 : 1));
      const upFront = names(deferCatalog(catalog, [], 21, [], [first, second]).upFront);
      return [first, second].map((server) => upFront.filter((name) => name.startsWith(`mcp__${server}__`)).length);
    };
    expect(share('alpha', 'omega')).toEqual([10, 10]);
    expect(share('omega', 'alpha')).toEqual([10, 10]);
  });

  it('within the limit nothing changes and search_tools is not added', () => {
    const split = deferCatalog([...PLUGINS, ...MCP], [], 8, []);
    expect(split.searchable).toBe(false);
    expect(names(split.upFront)).toEqual(names([...PLUGINS, ...MCP]));
    expect(split.deferred).toEqual([]);
  });

  it('over the limit: plugins, search_tools, then MCP tools while room is left; the rest deferred', () => {
    const split = deferCatalog([...PLUGINS, ...MCP], [], 5, []);
    expect(split.searchable).toBe(true);
    expect(names(split.upFront)).toEqual(['read', 'edit', SEARCH_TOOLS_NAME, 'mcp__s__t0', 'mcp__s__t1']);
    expect(names(split.deferred)).toEqual(['mcp__s__t2', 'mcp__s__t3', 'mcp__s__t4', 'mcp__s__t5']);
    expect(split.upFront).toHaveLength(5);
  });

  it('config-deferred tools join the searchable pool after the ones kept back by size', () => {
    const split = deferCatalog([...PLUGINS, ...MCP], [plugin('fetch', true)], 3, []);
    expect(names(split.upFront)).toEqual(['read', 'edit', SEARCH_TOOLS_NAME]);
    expect(names(split.deferred)).toEqual([...names(MCP), 'fetch']);
  });

  it('loaded tools come up front, earliest first, within the limit; unknown names are ignored', () => {
    const split = deferCatalog([...PLUGINS, ...MCP], [], 5, ['mcp__s__t4', 'ghost', 'mcp__s__t2', 'mcp__s__t5']);
    expect(names(split.upFront)).toEqual(['read', 'edit', SEARCH_TOOLS_NAME, 'mcp__s__t4', 'mcp__s__t2']);
    expect(names(split.deferred)).toEqual(['mcp__s__t0', 'mcp__s__t1', 'mcp__s__t3', 'mcp__s__t5']);
  });

  it('without a route limit, only a catalog above the threshold is deferred', () => {
    const many = Array.from({ length: DEFERRAL_THRESHOLD }, (_unused, index) => mcp(`mcp__s__m${index}`));
    expect(deferCatalog([...many], [], null, []).searchable).toBe(false);
    const split = deferCatalog([...PLUGINS, ...many], [], null, []);
    expect(split.searchable).toBe(true);
    expect(split.upFront).toHaveLength(DEFERRAL_THRESHOLD);
    expect(split.deferred).toHaveLength(3);
  });

  it('a catalog of plugin tools alone is left to projection, even over the limit', () => {
    const split = deferCatalog([...PLUGINS, plugin('shell')], [plugin('fetch', true)], 2, []);
    expect(split.searchable).toBe(false);
    expect(names(split.upFront)).toEqual(['read', 'edit', 'shell']);
    expect(names(split.deferred)).toEqual(['fetch']);
  });

  it('when plugin tools fill the limit, search_tools takes its last place and every MCP tool is deferred', () => {
    const split = deferCatalog([...PLUGINS, plugin('shell'), ...MCP], [], 2, []);
    expect(names(split.upFront)).toEqual(['read', SEARCH_TOOLS_NAME, 'edit', 'shell']);
    expect(names(split.deferred)).toEqual(names(MCP));
  });

  it('is deterministic', () => {
    const a = deferCatalog([...PLUGINS, ...MCP], [], 4, ['mcp__s__t3']);
    const b = deferCatalog([...PLUGINS, ...MCP], [], 4, ['mcp__s__t3']);
    expect(names(a.upFront)).toEqual(names(b.upFront));
    expect(names(a.deferred)).toEqual(names(b.deferred));
  });
});

describe('searchTools', () => {
  const pool = [
    mcp('mcp__gh__list_issues', 'List the issues of a GitHub repository.'),
    mcp('mcp__gh__create_issue', 'Create an issue in a GitHub repository.'),
    mcp('mcp__db__query', 'Run a SQL query.'),
    mcp('mcp__gh__list_pulls', 'List pull requests of a repository.'),
  ];

  it('ranks by the number of query words matched, case-insensitive, ties in pool order', () => {
    const hits = searchTools(pool, 'GitHub ISSUE list', 8);
    expect(hits.map((hit) => [hit.tool.name, hit.score])).toEqual([
      ['mcp__gh__list_issues', 3],
      ['mcp__gh__create_issue', 2],
      ['mcp__gh__list_pulls', 1],
    ]);
  });

  it('honours the limit and returns nothing for an empty query', () => {
    expect(searchTools(pool, 'repository', 2).map((hit) => hit.tool.name)).toEqual([
      'mcp__gh__list_issues',
      'mcp__gh__create_issue',
    ]);
    expect(searchTools(pool, '   ', 8)).toEqual([]);
  });

  it('formats one line per hit and a final loaded line; descriptions stay on one line', () => {
    const text = formatSearchResult(searchTools([mcp('a', 'first\nsecond'), mcp('b')], 'a b first', 8), 'q');
    expect(text).toBe('a — first second\nb — b tool\nloaded: a, b');
    expect(formatSearchResult([], 'zzz')).toMatch(/\nloaded:$/);
  });

  it('the executor reads only, defaults the limit to 8 and answers ok', async () => {
    const wide = Array.from({ length: 12 }, (_unused, index) => mcp(`mcp__s__x${index}`, 'widget'));
    const tool = searchToolsImplementation(wide);
    expect(tool.readOnly).toBe(true);
    const outcome = await tool.execute({ query: 'widget' }, {} as never);
    expect(outcome.status).toBe('ok');
    const lines = outcome.content.split('\n');
    expect(lines).toHaveLength(9);
    expect(lines.at(-1)).toBe(
      `loaded: ${wide
        .slice(0, 8)
        .map((entry) => entry.name)
        .join(', ')}`,
    );
    const two = await tool.execute({ query: 'widget', limit: 2 }, {} as never);
    expect(two.content.split('\n')).toHaveLength(3);
  });
});

describe('loadedToolNames', () => {
  const result = (content: string, status?: 'ok' | 'error', name = SEARCH_TOOLS_NAME): ConversationMessage => ({
    role: 'tool',
    tool_call_id: 'c',
    name,
    content,
    ...(status === undefined ? {} : { status }),
  });

  it('reads the final loaded line of each successful search result, earliest first, each once', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'loaded: not_a_result' },
      result('x — d\nloaded: x, y', 'ok'),
      result('loaded: nope', 'error'),
      result('loaded: other_tool', 'ok', 'read_file'),
      result('y — d\nz — d\nloaded: y, z\n'),
      result('No deferred tool matches "q". Try other words.\nloaded:'),
    ];
    expect(loadedToolNames(messages)).toEqual(['x', 'y', 'z']);
  });

  it('ignores a result whose last line is not a loaded line', () => {
    expect(loadedToolNames([result('loaded: a\nsomething else')])).toEqual([]);
  });
});
