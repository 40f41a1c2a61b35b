import { lazySchema } from '../validation/lazy-zod.js';

function parsed(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * An endpoint base URL: http or https, with no query, fragment or user info. A query or fragment
 * would swallow the path cw appends, and credentials belong in the key variable, not in a URL that
 * ends up in logs and error text. (An unparsable URL fails the url check itself.)
 */
export const baseUrlSchema = lazySchema((z) =>
  z
    .url({ protocol: /^https?$/ })
    .refine(
      (url) => !url.includes('?'),
      'must not carry a query (?...): base_url ends where the path cw appends begins',
    )
    .refine((url) => !url.includes('#'), 'must not carry a fragment (#...)')
    .refine((url) => {
      const address = parsed(url);
      return address === null || (address.username === '' && address.password === '');
    }, 'must not carry user info (name:secret@); put the key in the environment variable the route names'),
);
