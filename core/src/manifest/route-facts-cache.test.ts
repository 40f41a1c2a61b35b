import { describe, expect, it } from 'vitest';
import { sealJson } from '../canonical/sealed-json.js';
import type { PreparedOutboundRequest } from '../prepare-outbound-request.js';
import type { RouteFacts } from './manifest-schema.js';
import { cachedRouteFacts, routeFactsComputed } from './route-facts-cache.js';

const ROW = sealJson({ route_id: 'acme', provider_id: 'acme', plugin: '@cw/provider-acme' }) as object;

function prepared(overrides: Partial<Record<string, unknown>> = {}, row: object = ROW): PreparedOutboundRequest {
  return {
    route: { row, model: 'acme-large', definedBy: 'plugin-row', modelFacts: { match: null, provenance: null } },
    dialect: 'chat-completions',
    routeShape: 'standard',
    url: 'https://api.acme.test/v1/chat/completions',
    wireModel: 'acme-large',
    entrypoint: 'streaming',
    layout: { streamField: true },
    apiKeyEnv: 'ACME_KEY',
    headers: { 'content-type': 'application/json', 'user-agent': 'cw/1' },
    ...overrides,
  } as unknown as PreparedOutboundRequest;
}

// Stands in for the manifest's route facts: what it reads of the request shows in what it returns.
function compute(request: PreparedOutboundRequest): RouteFacts {
  const row = request.route.row as unknown as { route_id: string };
  return {
    route_id: row.route_id,
    wire_model: request.wireModel,
    caller_entrypoint: request.entrypoint,
    request_headers: { names: Object.keys(request.headers) },
  } as unknown as RouteFacts;
}

function facts(request: PreparedOutboundRequest) {
  const before = routeFactsComputed();
  const result = cachedRouteFacts(request, compute);
  return { facts: result, computed: routeFactsComputed() > before };
}

describe('the route facts cache', () => {
  it('works the facts out once per row and request facts, and gives the same frozen facts after that', () => {
    const first = facts(prepared());
    const again = facts(prepared());
    expect(again.computed).toBe(false);
    expect(again.facts).toBe(first.facts);
    expect(Object.isFrozen(first.facts)).toBe(true);
    expect(Object.isFrozen((first.facts as unknown as { request_headers: object }).request_headers)).toBe(true);
  });

  it('works them out again when the row or anything else they read changes', () => {
    facts(prepared());
    const otherRow = sealJson({ route_id: 'other', provider_id: 'acme', plugin: '@cw/provider-acme' }) as object;
    const changed = facts(prepared({}, otherRow));
    expect(changed.computed).toBe(true);
    expect((changed.facts as unknown as { route_id: string }).route_id).toBe('other');
    const cases: Partial<Record<string, unknown>>[] = [
      { url: 'https://api.acme.test/v2/chat/completions' },
      { wireModel: 'acme-fast' },
      { entrypoint: 'blocking' },
      { layout: { streamField: false } },
      { apiKeyEnv: null },
      { headers: { 'content-type': 'application/json', 'user-agent': 'cw/2' } },
      { headers: { 'content-type': 'application/json', 'user-agent': 'cw/1', 'x-extra': '1' } },
      { dialect: 'openai-responses' },
      { route: { row: ROW, model: 'acme-large', definedBy: 'user-config', modelFacts: { match: null } } },
      { route: { row: ROW, model: 'acme-large', definedBy: 'plugin-row', modelFacts: { match: { by: 'id' } } } },
    ];
    for (const overrides of cases) expect(facts(prepared(overrides)).computed).toBe(true);
  });

  it('works them out every time for a row that is not sealed', () => {
    const row = { route_id: 'acme', provider_id: 'acme', plugin: '@cw/provider-acme' };
    expect(facts(prepared({}, row)).computed).toBe(true);
    row.route_id = 'changed';
    const again = facts(prepared({}, row));
    expect(again.computed).toBe(true);
    expect((again.facts as unknown as { route_id: string }).route_id).toBe('changed');
  });
});
