import type { PluginApi, ResolvedRoute, RouteQuery } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { register } from './index.js';

type Tap = (query: RouteQuery) => ResolvedRoute | undefined;

function tapOf(): Tap {
  let tap: Tap | undefined;
  const api = {
    plugin: '@cw/provider-custom',
    hooks: { resolveRoute: { tap: (_name: unknown, fn: Tap) => (tap = fn) } },
  } as unknown as PluginApi;
  register(api);
  return tap as Tap;
}

function query(route: Record<string, unknown>, routeId = 'mine'): RouteQuery {
  return { routeId, config: { routes: { [routeId]: route } }, row: () => undefined } as unknown as RouteQuery;
}

const ROUTE = {
  provider: 'custom',
  dialect: 'chat-completions',
  base_url: 'https://llm.example.test/v1',
  model: 'm-1',
  api_key_env: 'EXAMPLE_KEY',
};

describe('the custom provider tap', () => {
  it('answers the same config entry with the same row, frozen all the way down', () => {
    const tap = tapOf();
    const first = tap(query({ ...ROUTE }));
    const again = tap(query({ ...ROUTE }));
    expect(again?.row).toBe(first?.row);
    expect(Object.isFrozen(first?.row)).toBe(true);
    expect(Object.isFrozen(first?.row.endpoint)).toBe(true);
    expect(Object.isFrozen(first?.row.tool_schema)).toBe(true);
    expect(first?.row).toMatchObject({ route_id: 'mine', plugin: '@cw/provider-custom', model: { default: 'm-1' } });
  });

  it('answers a changed entry or another route id with a new row', () => {
    const tap = tapOf();
    const first = tap(query({ ...ROUTE }));
    const window = tap(query({ ...ROUTE, context_window: 64_000 }));
    expect(window?.row).not.toBe(first?.row);
    expect(window?.row.context.window_tokens).toBe(64_000);
    const other = tap(query({ ...ROUTE }, 'theirs'));
    expect(other?.row.route_id).toBe('theirs');
    const dialect = tap(query({ ...ROUTE, dialect: 'anthropic-messages' }));
    expect(dialect?.row.auth.scheme).toBe('x-api-key');
    // The defaults the rows are built from are left as they were.
    expect(Object.isFrozen(tap(query({ ...ROUTE, model: 'm-2' }))?.row.tool_schema)).toBe(true);
    expect(tap(query({ ...ROUTE, provider: 'other' }))).toBeUndefined();
  });

  it('answers one entry object, changed in place, with the row of what it now says', () => {
    // The entry is found again by identity; every field a row is built from is compared, each alone.
    const tap = tapOf();
    const entry: Record<string, unknown> = { ...ROUTE };
    const first = tap(query(entry));
    expect(tap(query(entry))?.row).toBe(first?.row);
    const changes: [string, unknown][] = [
      ['dialect', 'anthropic-messages'],
      ['base_url', 'https://other.example.test/v1'],
      ['model', 'm-3'],
      ['api_key_env', 'OTHER_KEY'],
      ['context_window', 32_000],
      ['max_output_tokens', 4_000],
    ];
    let previous = first?.row;
    for (const [field, value] of changes) {
      entry[field] = value;
      const changed = tap(query(entry))?.row;
      expect(changed, field).not.toBe(previous);
      expect(changed, field).toEqual(tap(query({ ...entry }))?.row);
      previous = changed;
    }
    // The same object under another route id is another route.
    expect(tap(query(entry, 'theirs'))?.row.route_id).toBe('theirs');
    expect(tap(query(entry))?.row.route_id).toBe('mine');
  });
});
