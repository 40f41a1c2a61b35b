import { describe, expect, it } from 'vitest';
import { baseUrlSchema } from './base-url.js';

describe('base_url', () => {
  it.each(['https://api.example.com/v1', 'http://127.0.0.1:8080', 'https://api.example.com/v1/'])(
    'accepts %s',
    (url) => {
      expect(baseUrlSchema.safeParse(url).success).toBe(true);
    },
  );

  it.each([
    ['https://api.example.com/v1?key=abc', 'query'],
    ['https://api.example.com/v1?', 'query'],
    ['https://api.example.com/v1#frag', 'fragment'],
    ['https://user:secret@api.example.com/v1', 'user info'],
    ['https://user@api.example.com/v1', 'user info'],
    ['ftp://api.example.com', null],
  ])('refuses %s', (url, words) => {
    const result = baseUrlSchema.safeParse(url);
    expect(result.success).toBe(false);
    if (words !== null) expect(result.error?.issues.map((issue) => issue.message).join(' ')).toContain(words);
  });
});
