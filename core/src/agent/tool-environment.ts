import { SECRET_PREFIXES } from '../redaction/redact-secrets.js';
import { looksSecretShaped } from '../redaction/secret-shapes.js';
import type { CapabilityRow } from '../route/capability-row.js';

// The one environment policy for every command cw starts for the model: the shell tool, submit hooks
// and MCP stdio servers (docs/security.md, "What commands see of your environment"). Commands start
// from a short allowlist, never from cw's whole environment, so a key cw was never told about cannot
// reach a tool either.

// Each name is here because ordinary commands misbehave without it; nothing here carries a secret.
const ALLOWED_NAMES: ReadonlySet<string> = new Set([
  // Finding programs, and the home folder tools read their own settings from.
  'PATH',
  'HOME',
  // Who runs the command: `id`-free tools (git, ssh-free scripts, npm) read these for defaults.
  'USER',
  'LOGNAME',
  // What `$SHELL -c` and tools that start a subshell use.
  'SHELL',
  // How output is formatted: terminal kind, then locale (character set, collation, messages).
  'TERM',
  'LANG',
  'LANGUAGE',
  // Dates in the person's zone.
  'TZ',
  // Where temporary files go.
  'TMPDIR',
  'TEMP',
  'TMP',
  // Windows: without these, many programs cannot start at all.
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMFILES',
  'PROGRAMDATA',
  'USERNAME',
]);

// LC_ALL, LC_CTYPE, LC_MESSAGES, …: the locale's parts, each as harmless as LANG.
const LOCALE_PART = /^LC_[A-Z]+$/;

// Words that name a credential in a variable's name, matched as whole words between `_`, `-` or `.`.
const CREDENTIAL_WORDS: ReadonlySet<string> = new Set([
  'KEY',
  'KEYS',
  'APIKEY',
  'SECRET',
  'SECRETS',
  'TOKEN',
  'TOKENS',
  'PASS',
  'PASSWD',
  'PASSWORD',
  'PASSWORDS',
  'PASSPHRASE',
  'PWD',
  'AUTH',
  'OAUTH',
  'CREDENTIAL',
  'CREDENTIALS',
  'CREDS',
  'DSN',
  'WEBHOOK',
  'WEBHOOKS',
  'PAT',
  'COOKIE',
  'COOKIES',
  'SESSION',
  'PRIVATE',
  'JWT',
  'BEARER',
]);

// Run together with another word (`GITHUBTOKEN`, `DBPASSWORD`, `MYAPIKEY`) they still name one.
const CREDENTIAL_PARTS = /SECRET|PASSWORD|PASSWD|CREDENTIAL|WEBHOOK|APIKEY|ACCESSKEY|TOKEN$/;

// A URL whose user-info carries a password: `postgres://user:password@host/db`.
const URL_WITH_PASSWORD = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]+@/;

/** What `sandbox.env` adds to the allowlist: names (or `*` globs) to pass on, and fixed values. */
export interface EnvironmentPolicy {
  /** Variables a route reads its key from: never passed on, whatever `pass` says. */
  readonly keyVariables: ReadonlySet<string>;
  readonly pass: readonly string[];
  readonly set: Readonly<Record<string, string>>;
}

/**
 * The parts of a config the policy reads: route key variables and `sandbox.env`. Spelled out here
 * because the config's own schema uses this module's credential rule.
 */
export interface EnvironmentPolicyConfig {
  readonly routes: Readonly<Record<string, { readonly api_key_env?: string | undefined }>>;
  readonly sandbox?: {
    readonly env?: { readonly pass: readonly string[]; readonly set: Readonly<Record<string, string>> };
  };
}

/** How cw's environment was split for commands: counts only, never a name or a value. */
export interface EnvironmentCounts {
  /** Variables of cw's environment commands receive (the allowlist and `sandbox.env.pass`). */
  readonly passed: number;
  /** Variables `sandbox.env.set` gives commands. */
  readonly set: number;
  /** Variables kept from commands because their name or value looks like a credential, or a route reads its key from them. */
  readonly dropped_credentials: number;
  /** Every other variable of cw's environment: neither allowlisted nor passed. */
  readonly dropped_other: number;
}

/** Whether a variable's name says it holds a credential (`PGPASSWORD`, `GH_PAT`, `SENTRY_DSN`). */
export function isCredentialName(name: string): boolean {
  const upper = name.toUpperCase();
  // The shell's own working folder, not a password.
  if (upper === 'PWD' || upper === 'OLDPWD') return false;
  return upper
    .split(/[^A-Z0-9]+/)
    .some((word) => word !== '' && (CREDENTIAL_WORDS.has(word) || CREDENTIAL_PARTS.test(word)));
}

/** Whether a variable's value looks like a credential: a known key shape, a prefixed key, a URL with a password. */
export function isCredentialValue(value: string): boolean {
  if (looksSecretShaped(value) || URL_WITH_PASSWORD.test(value)) return true;
  return value.split(/[\s,;=]+/).some((word) => {
    const lower = word.toLowerCase();
    return SECRET_PREFIXES.some((prefix) => lower.startsWith(prefix) && word.length > prefix.length + 6);
  });
}

/**
 * Splits an environment by the policy: what commands receive, and how many variables went where.
 * An exact name in `pass` is the person's explicit choice and passes a credential-named or
 * credential-valued variable too; a `*` glob never does, and a route's key variable never passes.
 */
export function commandEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  policy: EnvironmentPolicy,
): { readonly env: Record<string, string>; readonly counts: EnvironmentCounts } {
  const exact = new Set(policy.pass.filter((entry) => !entry.includes('*')));
  const globs = policy.pass.filter((entry) => entry.includes('*')).map(globPattern);
  const out: Record<string, string> = {};
  let passed = 0;
  let droppedCredentials = 0;
  let droppedOther = 0;
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || Object.hasOwn(policy.set, name)) continue;
    if (policy.keyVariables.has(name)) {
      droppedCredentials++;
      continue;
    }
    // A value starting with `()` is an exported shell function: code, never passed on.
    if (value.startsWith('()')) {
      droppedOther++;
      continue;
    }
    const chosen = exact.has(name);
    if (!chosen && (isCredentialName(name) || isCredentialValue(value))) {
      droppedCredentials++;
      continue;
    }
    if (chosen || ALLOWED_NAMES.has(name) || LOCALE_PART.test(name) || globs.some((glob) => glob.test(name))) {
      out[name] = value;
      passed++;
    } else droppedOther++;
  }
  for (const [name, value] of Object.entries(policy.set)) out[name] = value;
  return {
    env: out,
    counts: {
      passed,
      set: Object.keys(policy.set).length,
      dropped_credentials: droppedCredentials,
      dropped_other: droppedOther,
    },
  };
}

/** The policy a config gives: its `sandbox.env`, and every variable a known route reads its key from. */
export function environmentPolicy(
  rows: readonly Pick<CapabilityRow, 'auth'>[],
  config: EnvironmentPolicyConfig,
): EnvironmentPolicy {
  const keyVariables = new Set<string>();
  for (const row of rows) if (row.auth.api_key_env !== null) keyVariables.add(row.auth.api_key_env);
  for (const route of Object.values(config.routes))
    if (route.api_key_env !== undefined) keyVariables.add(route.api_key_env);
  // A snapshot built by hand (tests, other hosts) may carry a config parsed before the field existed.
  const envConfig = config.sandbox?.env;
  return { keyVariables, pass: envConfig?.pass ?? [], set: envConfig?.set ?? {} };
}

/** The policy with nothing added: the allowlist alone, for a command started without a config. */
export const ALLOWLIST_ONLY: EnvironmentPolicy = { keyVariables: new Set(), pass: [], set: {} };

/**
 * The environment tool subprocesses run with: the allowlist, `sandbox.env.pass` and `sandbox.env.set`,
 * less anything that looks like a credential and every variable a configured route reads its key
 * from. The loop hands this, not process.env, to every tool.
 */
export function toolEnvironment(
  env: NodeJS.ProcessEnv,
  rows: readonly Pick<CapabilityRow, 'auth'>[],
  config: EnvironmentPolicyConfig,
): Record<string, string> {
  return commandEnvironment(env, environmentPolicy(rows, config)).env;
}

function globPattern(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map(escapeRegExp).join('.*')}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
