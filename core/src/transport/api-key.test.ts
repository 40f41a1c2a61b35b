import { describe, expect, it } from 'vitest';
import { capabilityRowSchema, type CapabilityRowInput } from '../route/capability-row.js';
import { credentialHeader } from './api-key.js';

const KEY = 'sk-test-0000000000000000';

function auth(input: CapabilityRowInput['auth']) {
  const row: CapabilityRowInput = {
    provider_id: 'p',
    provider_display: 'P',
    route_id: 'r',
    dialect: 'chat-completions',
    route_shape: 'standard',
    endpoint: { base_url: 'https://api.example.com', path: '/v1/chat' },
    auth: input,
    model: { default: 'm' },
    context: { window_tokens: 1000, source: 'fallback' },
    output_cap: { field: 'max_tokens', default_tokens: 100 },
    billing: { kind: 'unknown' },
    tool_schema: { dialect: 'loose' },
    tool_choice: { accepted: ['auto'] },
    reasoning: null,
    provenance: { source: 'test' },
  };
  return capabilityRowSchema.safeParse(row);
}

describe('where the key goes', () => {
  it('bearer, x-api-key and a named header each put the key where the row says', () => {
    const cases = [
      [{ scheme: 'bearer', api_key_env: 'K' }, ['authorization', `Bearer ${KEY}`]],
      [{ scheme: 'x-api-key', api_key_env: 'K' }, ['x-api-key', KEY]],
      [{ scheme: 'header', key_header: 'x-service-key', api_key_env: 'K' }, ['x-service-key', KEY]],
    ] as const;
    for (const [input, expected] of cases) {
      const parsed = auth(input);
      if (!parsed.success) throw new Error(parsed.error.message);
      expect(credentialHeader(parsed.data.auth, KEY)).toEqual(expected);
    }
  });

  it('a row names key_header with scheme header, and only then', () => {
    const issue = (input: CapabilityRowInput['auth']): string => {
      const parsed = auth(input);
      expect(parsed.success).toBe(false);
      return parsed.error?.issues.map((entry) => `${entry.path.join('.')}: ${entry.message}`).join('; ') ?? '';
    };
    expect(issue({ scheme: 'header', api_key_env: 'K' })).toContain('auth.key_header');
    expect(issue({ scheme: 'bearer', key_header: 'x-service-key', api_key_env: 'K' })).toContain('auth.key_header');
    expect(issue({ scheme: 'header', key_header: 'Content-Type', api_key_env: 'K' })).toContain('lower-case');
    expect(issue({ scheme: 'header', key_header: 'content-length', api_key_env: 'K' })).toContain('transport writes');
    expect(issue({ scheme: 'header', key_header: 'x key', api_key_env: 'K' })).toContain('lower-case');
  });
});
