import type { z } from 'zod';
import { isCredentialValue } from '../agent/tool-environment.js';
import { lazySchema } from '../validation/lazy-zod.js';
import { DEFAULT_SANDBOX_LIMITS } from './sandbox-limits.js';

/** How commands the model runs are confined: config `sandbox.mode`, flag `--sandbox` (docs/security.md). */
export const SANDBOX_MODES = ['off', 'on', 'required'] as const;
/** A sandbox mode: `off` runs commands as the user, `on` sandboxes when it can, `required` refuses when it cannot. */
export type SandboxMode = (typeof SANDBOX_MODES)[number];

// A host an allowlist names: a DNS name or an IPv4 address, optionally `*.` for every subdomain.
const ALLOWED_HOST =
  /^(?:\*\.)?(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

// An environment variable's name; `sandbox.env.pass` may also hold `*` globs (`NODE_*`).
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const ENV_NAME_GLOB = /^[A-Za-z_*][A-Za-z0-9_*]{0,127}$/;

/** The `sandbox.env` object: what commands receive besides the allowlist (docs/security.md). */
const sandboxEnvSchema = lazySchema((z) =>
  z
    .object({
      /** Variables of cw's environment passed on to commands: exact names, or globs with `*`. */
      pass: z
        .array(z.string().regex(ENV_NAME_GLOB, 'must be a variable name, or a pattern of letters, digits, _ and *'))
        .max(256)
        .default([]),
      /** Variables commands receive with these values. */
      set: z
        .record(
          z.string().regex(ENV_NAME, 'must be a variable name: letters, digits and _'),
          z
            .string()
            .max(4096)
            // Config never holds a secret (docs/config.md).
            .refine(
              (value) => !isCredentialValue(value),
              'looks like a credential; config never holds a secret: name the variable in sandbox.env.pass instead',
            ),
        )
        .default({}),
    })
    .strict(),
);

/** The `sandbox.env` settings, defaults filled in. */
export type SandboxEnvConfig = z.output<typeof sandboxEnvSchema>;

/** The `sandbox` object of config.json (docs/config.md). */
export const sandboxConfigSchema = lazySchema((z) =>
  z
    .object({
      mode: z.enum(SANDBOX_MODES).default('on'),
      /** `off` (default): no network; `on`: the host's network; a list: only these hosts, through a proxy cw runs. */
      network: z
        .union([
          z.enum(['off', 'on']),
          z
            .array(z.string().max(253).regex(ALLOWED_HOST, 'must be a host name or an IPv4 address, or *.domain'))
            .min(1)
            .max(256),
        ])
        .default('off'),
      /** More paths hidden from commands, besides the built-in list; `~/` is the home folder. */
      deny_read: z.array(z.string().min(1).max(4096)).max(256).default([]),
      /** Resource limits inside the sandbox: processes (and threads) at once, largest file in MiB. */
      limits: z
        .object({
          processes: z.number().int().min(16).max(1_000_000).default(DEFAULT_SANDBOX_LIMITS.processes),
          file_size_mb: z.number().int().min(1).max(16_777_216).default(DEFAULT_SANDBOX_LIMITS.file_size_mb),
        })
        .strict()
        .default(DEFAULT_SANDBOX_LIMITS),
      /** What commands see of cw's environment besides the allowlist (docs/security.md). */
      env: sandboxEnvSchema.default({ pass: [], set: {} }),
    })
    .strict(),
);

/** The sandbox settings, defaults filled in. */
export type SandboxConfig = z.output<typeof sandboxConfigSchema>;

/** The sandbox settings when config.json says nothing. */
export const DEFAULT_SANDBOX_CONFIG: SandboxConfig = {
  mode: 'on',
  network: 'off',
  deny_read: [],
  limits: DEFAULT_SANDBOX_LIMITS,
  env: { pass: [], set: {} },
};

/** The network policy as the manifest reports it: a list is `allowlist`, its hosts never shown. */
export type SandboxNetworkPolicy = 'off' | 'on' | 'allowlist';

/** The network policy of a sandbox config. */
export function networkPolicyOf(network: SandboxConfig['network']): SandboxNetworkPolicy {
  return Array.isArray(network) ? 'allowlist' : network;
}
