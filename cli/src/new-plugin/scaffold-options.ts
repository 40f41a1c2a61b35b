/** A `cw plugins new` argument that cannot be used; exit 2, and its message names what to fix without repeating it. */
export class ScaffoldUsageError extends Error {
  readonly safeMessage: string;
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'ScaffoldUsageError';
    this.safeMessage = message;
  }
}

/** What a new plugin project is filled in with. */
export interface ScaffoldOptions {
  /** The npm package name, scoped or not. */
  readonly packageName: string;
  readonly providerId: string;
  readonly providerDisplay: string;
  readonly routeId: string;
  readonly dialect: string;
  readonly baseUrl: string;
  readonly keyEnv: string;
}

/** The flags as given; anything missing is derived from the package name. */
export interface ScaffoldFlags {
  readonly routeId?: string | undefined;
  readonly dialect?: string | undefined;
  readonly providerDisplay?: string | undefined;
  readonly baseUrl?: string | undefined;
  readonly keyEnv?: string | undefined;
}

// npm's rules for a new package name: lower case, URL-safe, at most 214 characters, an optional scope.
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
// A route id as cw's config and the manifest use it: kebab-case, like the built-in routes.
const ROUTE_ID = /^[a-z0-9]+(?:[-.][a-z0-9]+)*$/;
// The capability row's rule for the key variable (docs/capability-rows.md).
const KEY_ENV = /^[A-Z_][A-Z0-9_]*$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The dialects whose route the scaffold can test end to end: its route test builds the body the
 * dialect documents and validates it against that dialect's request schema (docs/plugin-authors.md).
 */
export const SCAFFOLD_DIALECTS = ['chat-completions'] as const;

/** The package name without its scope: the folder the project is written to by default. */
export function unscopedName(packageName: string): string {
  return packageName.slice(packageName.indexOf('/') + 1);
}

/** `cw-provider-acme` → `acme`: the part of the name that names the provider. */
function providerPart(packageName: string): string {
  const bare = unscopedName(packageName)
    .replace(/^cw-provider-|^cw-/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return bare === '' ? 'provider' : bare.slice(0, 64).replace(/-+$/, '');
}

function titleCase(id: string): string {
  return id
    .split(/[-.]/)
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

function checkBaseUrl(text: string): void {
  const fix = 'use https://host/path (http only for localhost), with no query, fragment or user info';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ScaffoldUsageError(`--base-url is not a URL; ${fix}`);
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) throw new ScaffoldUsageError(`--base-url must be https; ${fix}`);
  if (text.includes('?') || text.includes('#') || url.username !== '' || url.password !== '')
    throw new ScaffoldUsageError(`--base-url may not carry a query, fragment or user info; ${fix}`);
}

/** Checks the name and flags, and fills in every value not given. Throws ScaffoldUsageError. */
export function scaffoldOptions(packageName: string, flags: ScaffoldFlags): ScaffoldOptions {
  if (packageName.length > 214 || !PACKAGE_NAME.test(packageName))
    throw new ScaffoldUsageError(
      'the plugin name is not a valid npm package name; use lower-case letters, digits and - . _ ~, optionally @scope/ first (e.g. cw-provider-acme)',
    );
  const provider = providerPart(packageName);
  const routeId = flags.routeId ?? provider;
  if (routeId.length > 64 || !ROUTE_ID.test(routeId))
    throw new ScaffoldUsageError(
      '--route-id must be kebab-case: lower-case letters and digits joined by - or ., at most 64 characters (e.g. acme-chat)',
    );
  const dialect = flags.dialect ?? 'chat-completions';
  if (!(SCAFFOLD_DIALECTS as readonly string[]).includes(dialect))
    throw new ScaffoldUsageError(
      `--dialect: the scaffold's route test covers ${SCAFFOLD_DIALECTS.join(', ')}; start from it and change the dialect by hand (docs/plugin-authors.md, "Adding a dialect")`,
    );
  const providerDisplay = flags.providerDisplay ?? titleCase(provider);
  // A control character or a line break would end up in source text and in every listing of the route.
  if (providerDisplay.trim() === '' || providerDisplay.length > 80 || /\p{Cc}/u.test(providerDisplay))
    throw new ScaffoldUsageError('--provider-display must be 1 to 80 characters of one line');
  const baseUrl = flags.baseUrl ?? `https://api.${provider}.example/v1`;
  checkBaseUrl(baseUrl);
  const keyEnv = flags.keyEnv ?? `${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`;
  if (!KEY_ENV.test(keyEnv))
    throw new ScaffoldUsageError(
      '--key-env must be an environment variable name: upper-case letters, digits and _ (e.g. ACME_API_KEY)',
    );
  return { packageName, providerId: provider, providerDisplay, routeId, dialect, baseUrl, keyEnv };
}
