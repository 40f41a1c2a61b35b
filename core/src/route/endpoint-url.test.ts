import { describe, expect, it } from 'vitest';
import { endpointPathSchema } from './endpoint-path.js';
import { endpointUrl } from './endpoint-url.js';

const plain = {
  endpoint: { base_url: 'https://api.example.com/v1/', path: '/chat/completions', streaming_path: null },
};
const byUrl = {
  endpoint: {
    base_url: 'https://api.example.com/v2',
    path: '/models/{model}:generate',
    streaming_path: '/models/{model}:streamGenerate?alt=sse',
  },
};

describe('endpointUrl', () => {
  it('joins base and path, on both entry points, when the row has no streaming path', () => {
    for (const entrypoint of ['streaming', 'blocking'] as const) {
      expect(endpointUrl(plain, { wireModel: 'm-1', entrypoint })).toBe('https://api.example.com/v1/chat/completions');
    }
    expect(endpointUrl(plain)).toBe('https://api.example.com/v1/chat/completions');
  });

  it('puts the wire model into the path, and takes the streaming path on the streaming entry point only', () => {
    expect(endpointUrl(byUrl, { wireModel: 'flash-2', entrypoint: 'blocking' })).toBe(
      'https://api.example.com/v2/models/flash-2:generate',
    );
    expect(endpointUrl(byUrl, { wireModel: 'flash-2', entrypoint: 'streaming' })).toBe(
      'https://api.example.com/v2/models/flash-2:streamGenerate?alt=sse',
    );
  });

  it('percent-encodes the model, so an id can add no path segment, query or fragment', () => {
    const url = endpointUrl(byUrl, { wireModel: '../admin?x=1#y', entrypoint: 'streaming' });
    expect(url).toBe('https://api.example.com/v2/models/..%2Fadmin%3Fx%3D1%23y:streamGenerate?alt=sse');
    const parsed = new URL(url);
    expect(parsed.pathname).toBe('/v2/models/..%2Fadmin%3Fx%3D1%23y:streamGenerate');
    expect(parsed.search).toBe('?alt=sse');
    expect(parsed.hash).toBe('');
  });

  it('leaves the template as written without a target (what cw routes fingerprints)', () => {
    expect(endpointUrl(byUrl)).toBe('https://api.example.com/v2/models/{model}:generate');
  });
});

describe('endpoint paths', () => {
  it.each(['/chat/completions', '/models/{model}:generate', '/m/{model}/{model}?alt=sse'])('accepts %s', (path) => {
    expect(endpointPathSchema.safeParse(path).success).toBe(true);
  });

  it.each([
    ['chat/completions', 'must start with'],
    ['/models/{modle}:generate', '{model}'],
    ['/models/{model:generate', '{model}'],
    ['/a}', '{model}'],
    ['/chat#top', 'fragment'],
  ])('refuses %s', (path, words) => {
    const result = endpointPathSchema.safeParse(path);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message).join(' ')).toContain(words);
  });
});
