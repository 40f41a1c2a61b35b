import type { McpServerConfig } from '../config/cw-config.js';
import { looksSecretShaped } from '../redaction/secret-shapes.js';
import { isMcpHttpServer } from './mcp-server-target.js';

/** Where a literal secret sits in a server entry: the field, and the env or header name (null for args and url). */
export interface LiteralSecret {
  readonly field: 'env' | 'headers' | 'args' | 'url';
  readonly key: string | null;
}

const REFERENCE = /\$\{env:[A-Za-z_][A-Za-z0-9_]*\}/g;
// Names that say their value is a credential.
const CREDENTIAL_NAME = /(?:key|token|secret|password|passwd|credential|auth|cookie|session)/i;
// A run of 16 or more token characters: what is left of a credential once a scheme word such as
// `Bearer` is set aside. It must mix letters and digits, so a long word or a path is not taken for one.
const LONG_RUN = /[A-Za-z0-9+=_~-]{16,}/g;

function hasOpaqueRun(text: string): boolean {
  return Array.from(text.matchAll(LONG_RUN)).some(([run]) => /[A-Za-z]/.test(run) && /[0-9]/.test(run));
}

/** True when `text`, with its `${env:NAME}` references set aside, still holds something credential-like. */
function literalPart(text: string, credentialNamed: boolean): boolean {
  const literal = text.replace(REFERENCE, ' ');
  if (looksSecretShaped(literal)) return true;
  return credentialNamed && hasOpaqueRun(literal);
}

/**
 * Finds a value that looks like a secret written out in full, where config must hold only a
 * `${env:NAME}` reference to it: a known credential shape anywhere (env, headers, args, url), or a long
 * opaque run in an env var or header whose name says it is a credential (`Authorization`,
 * `GITHUB_TOKEN`). Returns the first one found, or null. The value itself is never returned.
 */
export function findLiteralSecret(server: McpServerConfig): LiteralSecret | null {
  const named = isMcpHttpServer(server)
    ? Object.entries(server.headers).map(([key, value]) => ({ field: 'headers' as const, key, value }))
    : Object.entries(server.env).map(([key, value]) => ({ field: 'env' as const, key, value }));
  for (const { field, key, value } of named) {
    if (literalPart(value, CREDENTIAL_NAME.test(key))) return { field, key };
  }
  if (isMcpHttpServer(server)) return looksSecretShaped(server.url) ? { field: 'url', key: null } : null;
  for (const arg of server.args) if (looksSecretShaped(arg)) return { field: 'args', key: null };
  return null;
}
