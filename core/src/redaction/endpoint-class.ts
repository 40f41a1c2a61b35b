import { isIPv4 } from './ipv4.js';
import { rememberedSha256 } from '../canonical/remembered-sha256.js';
import { fingerprint } from '../canonical/sha256.js';
import { SmallLru } from '../canonical/small-lru.js';

function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost') return true;
  // WHATWG URL has already normalized every IPv4 spelling (`127.1`, `0x7f.0.0.1`) to dotted decimal.
  if (isIPv4(hostname)) return hostname.startsWith('127.');
  // WHATWG URL keeps the brackets on an IPv6 host, so IPv6 loopback arrives as `[::1]`.
  return hostname === '[::1]';
}

// The remote digest covers only the lowercased host and any non-default port, so two routes to the same
// server compare equal while the host itself, the path, the query and any credentials stay hidden.
/** An endpoint shown as `http loopback`, `https remote sha256:<12 hex>`, `other …` or `unparseable …`. */
export function endpointHostClass(url: string): string {
  // A pure function of the URL, asked for the same route's URL on every request of a process.
  let known = hostClasses.get(url);
  if (known === undefined) {
    known = hostClassOf(url);
    hostClasses.set(url, known);
  }
  return known;
}

const hostClasses = new SmallLru<string, string>(16);

function hostClassOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `unparseable ${fingerprint(url)}`;
  }
  const scheme = parsed.protocol === 'http:' ? 'http' : parsed.protocol === 'https:' ? 'https' : 'other';
  const hostname = parsed.hostname.toLowerCase();
  if (isLoopbackHost(hostname)) return `${scheme} loopback`;
  // WHATWG has dropped the userinfo and any default port and converted IDN hosts to punycode.
  const authority = parsed.port === '' ? hostname : `${hostname}:${parsed.port}`;
  return `${scheme} remote ${fingerprint(authority)}`;
}

/** SHA-256 of the entire URL string, credentials and all: only ever compared, never decoded. */
export function endpointFingerprint(url: string): string {
  return rememberedSha256(url);
}
