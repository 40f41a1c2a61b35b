// A capability row for unit tests of what reads a row (projection, its cache): a plain
// Chat Completions route at a reserved test domain, with the fields a test overrides.
import {
  type CapabilityRow,
  type CapabilityRowInput,
  capabilityRowSchema,
} from '../../core/src/route/capability-row.js';

/** A checked row, `overrides` applied over the plain one, as a plugin registers it. */
export function unitCapabilityRow(overrides: Partial<CapabilityRowInput> = {}): CapabilityRow {
  const input: CapabilityRowInput = {
    provider_id: 'example',
    provider_display: 'Example',
    route_id: 'example',
    dialect: 'chat-completions',
    route_shape: 'standard',
    endpoint: { base_url: 'https://api.example.test/v1', path: '/chat/completions' },
    auth: { scheme: 'bearer', api_key_env: 'EXAMPLE_API_KEY' },
    model: { default: 'example-model' },
    context: { window_tokens: 128_000, source: 'catalog' },
    output_cap: { field: 'max_tokens', default_tokens: 4_096 },
    billing: { kind: 'metered' },
    tool_schema: { dialect: 'mfjs' },
    tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
    reasoning: null,
    provenance: { source: 'unit test' },
    ...overrides,
  };
  return { ...capabilityRowSchema.parse(input), plugin: 'unit-test' };
}
