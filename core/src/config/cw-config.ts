import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { checkWith } from '../validation/checked-values.js';
import { type Zod, lazySchema } from '../validation/lazy-zod.js';
import {
  type ConfigProblem,
  formatConfigProblem,
  schemaFieldNames,
  schemaProblems,
  textProblems,
} from './config-problems.js';
import { type ConfigPathSegment, type ConfigText, parseConfigText } from './config-text.js';
import { APPROVAL_POSTURES } from './approval-posture.js';
import { hasMalformedEnvReference } from './expand-env-references.js';
import { baseUrlSchema } from '../route/base-url.js';
import { REASONING_SELECTIONS, labelSchema } from '../route/capability-row.js';
import { DEFAULT_SANDBOX_CONFIG, sandboxConfigSchema } from '../sandbox/sandbox-config.js';

const customRouteFields = (z: Zod) => ({
  provider: z.literal('custom'),
  // Checked against the loaded dialect plugins when the route resolves.
  dialect: labelSchema,
  base_url: baseUrlSchema,
  model: z.string().min(1).max(256),
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .optional(),
  context_window: z.number().int().positive().optional(),
  max_output_tokens: z.number().int().positive().optional(),
});

const customRoute = lazySchema((z) => z.object(customRouteFields(z)).strict());

// What config.json may hold under routes.<id>: every field checked as it is written, none required,
// so a route can be written field by field (cw config set routes.<id>.<field>). A route missing a
// required field is kept aside as incomplete, and using it says what it still needs (docs/config.md).
const configRouteEntry = lazySchema((z) => z.object(customRouteFields(z)).partial().strict());

/** The fields a custom route needs before it can be used, in the order a person would set them. */
export const REQUIRED_ROUTE_FIELDS = ['provider', 'dialect', 'base_url', 'model'] as const;

/** An MCP server's name: the key under `mcpServers`, and the prefix its tools are known by. */
export const MCP_SERVER_NAME_PATTERN = /^(?!__proto__$)[A-Za-z0-9_-]{1,64}$/;

const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// RFC 9110 token characters: what an HTTP field name may be made of.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function parsedUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A map of names to strings whose values may hold `${env:NAME}` references. Checked as a whole so
 * a problem is reported against the field (`env`, `headers`), never against a key or value the
 * user wrote: either could be a secret pasted in the wrong place.
 */
function referenceMap(z: Zod, names: RegExp, what: string) {
  return z.custom<Record<string, string>>(
    (value) =>
      isPlainRecord(value) &&
      Object.keys(value).length <= 256 &&
      Object.entries(value).every(
        ([key, text]) =>
          key.length <= 256 &&
          names.test(key) &&
          typeof text === 'string' &&
          text.length <= 16_384 &&
          !hasMalformedEnvReference(text),
      ),
    `must map ${what} to strings (at most 256); a value may refer to a variable only as \${env:NAME}`,
  );
}

/** A local server cw starts and speaks to over its stdin and stdout. */
const mcpStdioServer = lazySchema((z) =>
  z
    .object({
      command: z.string().min(1).max(4096),
      args: z.array(z.string().max(32_768)).max(1024).default([]),
      /** Set in the server's environment, on top of a minimal base (PATH, HOME, …); values may be `${env:NAME}`. */
      env: referenceMap(z, ENV_VAR_NAME, 'environment variable names').default({}),
      /** The folder the server starts in; default: the folder cw runs in. */
      cwd: z.string().min(1).max(4096).optional(),
      /** Start the server inside the sandbox, with the paths its args name writable (docs/mcp.md); optional so it leaves fingerprints alone. */
      sandbox: z.boolean().optional(),
      disabled: z.boolean().default(false),
    })
    .strict(),
);

/** A remote server cw speaks to over streamable HTTP. */
const mcpHttpServer = lazySchema((z) =>
  z
    .object({
      url: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .refine((url) => {
          const address = parsedUrl(url);
          return address === null || (address.username === '' && address.password === '');
        }, 'must not carry user info (name:secret@); send credentials in a header as ${env:NAME}')
        .refine((url) => !url.includes('#'), 'must not carry a fragment (#...)'),
      /** Sent with every request; values may be `${env:NAME}` (`"Authorization": "Bearer ${env:TOKEN}"`). */
      headers: referenceMap(z, HEADER_NAME, 'HTTP header names').default({}),
      disabled: z.boolean().default(false),
    })
    .strict(),
);

/** One `mcpServers` entry as written: a stdio server (`command`) or a streamable HTTP one (`url`). */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;
/** A stdio MCP server entry, defaults filled in; `env` values still hold their `${env:NAME}` references. */
export type McpStdioServerConfig = z.output<typeof mcpStdioServer>;
/** A streamable HTTP MCP server entry, defaults filled in; `headers` values still hold their references. */
export type McpHttpServerConfig = z.output<typeof mcpHttpServer>;

/**
 * One `mcpServers` entry. The transport is chosen by the key present (`url` or `command`) before the
 * entry is checked, so a mistake is reported against the field it is in rather than as "matches
 * neither shape".
 */
export const mcpServerConfigSchema = lazySchema((z) =>
  z.unknown().transform((value, context): McpServerConfig => {
    if (!isPlainRecord(value)) {
      context.addIssue({ code: 'invalid_type', expected: 'object', input: value });
      return z.NEVER;
    }
    const hasUrl = Object.hasOwn(value, 'url');
    if (hasUrl === Object.hasOwn(value, 'command')) {
      context.addIssue({
        code: 'custom',
        input: value,
        message: hasUrl
          ? 'has both command and url: a server is either local (command) or remote (url)'
          : 'needs command (a local stdio server) or url (a remote streamable HTTP server)',
      });
      return z.NEVER;
    }
    const parsed = (hasUrl ? mcpHttpServer : mcpStdioServer).safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) context.addIssue({ ...issue, input: undefined } as z.core.$ZodRawIssue);
    return z.NEVER;
  }),
);

const toolName = lazySchema((z) => z.string().min(1).max(128));

const toolGates = lazySchema((z) =>
  z
    .object({
      /** Only these catalog tools may be sent; absent means no allow gate. */
      allow: z.array(toolName).max(1024).optional(),
      /** These catalog tools are never sent; absent means no deny gate. */
      deny: z.array(toolName).max(1024).optional(),
      /** `standard` keeps deferred tools behind discovery; `full` sends them up front too. */
      surface: z.enum(['standard', 'full']).default('standard'),
    })
    .strict(),
);

// A day is longer than any one model exchange; a larger figure is a typo, not a wish.
const milliseconds = lazySchema((z) => z.number().int().positive().max(86_400_000));

/** cw's own timeouts, each optional: what is left out keeps its default (docs/transport.md). */
const timeoutsConfig = lazySchema((z) =>
  z
    .object({
      connect_ms: milliseconds.optional(),
      first_byte_ms: milliseconds.optional(),
      idle_ms: milliseconds.optional(),
      total_ms: milliseconds.optional(),
    })
    .strict(),
);

const retriesConfig = lazySchema((z) =>
  z
    .object({
      /** Retries after the first attempt; 0 turns retrying off. */
      max: z.number().int().min(0).max(10).optional(),
      initial_delay_ms: milliseconds.optional(),
      max_delay_ms: milliseconds.optional(),
    })
    .strict(),
);

/**
 * One permission rule: a tool name, optionally with a command in parentheses (`shell(npm test:*)`),
 * or every tool of one MCP server (`mcp__<server>__*`).
 */
const permissionRule = lazySchema((z) =>
  z
    .string()
    .min(1)
    .max(512)
    .regex(
      /^(?:[A-Za-z0-9_-]+(\(.*\))?|mcp__[A-Za-z0-9_-]+__\*)$/s,
      'must be a tool name, optionally followed by (command) or (prefix:*), or mcp__<server>__*',
    ),
);

const permissions = lazySchema((z) =>
  z
    .object({
      /** Calls these rules name run without asking, whatever the posture (except never). */
      allow: z.array(permissionRule).max(256).default([]),
      /** Calls these rules name are refused; deny wins over allow. */
      deny: z.array(permissionRule).max(256).default([]),
    })
    .strict(),
);

const toolLimits = lazySchema((z) =>
  z
    .object({
      output_bytes: z.number().int().min(1_024).max(10_000_000).optional(),
      output_lines: z.number().int().min(10).max(100_000).optional(),
      command_timeout_ms: milliseconds.optional(),
      /** The longest one search's regular expression may run (default 10 s). */
      search_timeout_ms: milliseconds.optional(),
    })
    .strict(),
);

/** The working context a turn carries: AGENTS.md layers of the system prompt, the turn-context block (docs/project-context.md). */
const contextConfig = lazySchema((z) =>
  z
    .object({
      /** Append AGENTS.md from the cw home and from the workspace root down to the working folder. */
      project_instructions: z.boolean().default(true),
      /** Lead a new user message with the turn-context block when it changed: folder, branch, OS and date. */
      turn_context: z.boolean().default(true),
    })
    .strict(),
);

/** One program `cw send` runs on the prompt before it is resolved (docs/hooks.md). */
const messageSubmitHook = lazySchema((z) =>
  z
    .object({
      /** The program and its arguments; no shell is involved. */
      command: z.array(z.string().min(1).max(4096)).min(1).max(256),
      /** How long the hook may run before the send stops. */
      timeout_ms: z.number().int().positive().max(600_000).default(10_000),
    })
    .strict(),
);

const hooksConfig = lazySchema((z) =>
  z
    .object({
      /** Run in order on every new prompt `cw send` submits; preview never runs them. */
      message_submit: z.array(messageSubmitHook).max(16).default([]),
    })
    .strict(),
);

/** When cw send summarises older turns before a request (docs/compaction.md). */
const compactionConfig = lazySchema((z) =>
  z
    .object({
      /** false: never compact before a send; `cw compact` still works on demand. */
      enabled: z.boolean().default(true),
      /** The share of the route's input budget the next request's estimate must reach to compact first. */
      threshold: z.number().min(0.1).max(1).default(0.8),
      /** The latest user turns kept word for word; everything before them is summarised. */
      keep_recent_turns: z.number().int().min(1).max(50).default(1),
    })
    .strict(),
);

const routeId = lazySchema((z) => z.string().min(1).max(64));

/** One route auto routing may choose, with optional words telling the classifier when it fits. */
const autoCandidate = lazySchema((z) =>
  z.union([routeId, z.object({ route: routeId, when: z.string().min(1).max(500).optional() }).strict()]),
);

/** Auto model routing: a classifier route picks one of the candidates for each new prompt (docs/auto-routing.md). */
const autoConfig = lazySchema((z) =>
  z
    .object({
      /** The route the small classifying request goes to. */
      classifier_route: routeId,
      candidates: z.array(autoCandidate).min(1).max(16),
    })
    .strict(),
);

/** The shape of `$CW_HOME/config.json`. Every field is optional: no file means the built-in default route. */
export const cwConfigSchema = lazySchema((z) =>
  z
    .object({
      route: z.string().min(1).max(64).optional(),
      model: z.string().min(1).max(256).optional(),
      reasoning: z.enum(REASONING_SELECTIONS).optional(),
      session: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, - or _')
        .optional(),
      routes: z.record(z.string().min(1).max(64), configRouteEntry).default({}),
      mcpServers: z
        .unknown()
        // Checked on the map as written, before it is copied (a copy would drop `__proto__`), and as a
        // whole, so a bad name is reported without repeating it.
        .refine(
          (servers) =>
            !isPlainRecord(servers) || Object.keys(servers).every((name) => MCP_SERVER_NAME_PATTERN.test(name)),
          'server names must be 1 to 64 letters, digits, - or _ (and not __proto__)',
        )
        .pipe(z.record(z.string(), mcpServerConfigSchema))
        .default({}),
      tools: toolGates.default({ surface: 'standard' }),
      timeouts: timeoutsConfig.default({}),
      /** Timeouts for one route, keyed by route id; a route's entry wins over the top level. */
      route_timeouts: z.record(z.string().min(1).max(256), timeoutsConfig).default({}),
      retries: retriesConfig.default({}),
      /** The largest reply cw reads, in bytes. */
      max_reply_bytes: z
        .number()
        .int()
        .positive()
        .max(2 ** 31)
        .optional(),
      /** What the agent loop may run without asking (docs/agent-loop.md). */
      approval: z.enum(APPROVAL_POSTURES).default('ask'),
      permissions: permissions.default({ allow: [], deny: [] }),
      /** Where the commands the model runs are confined, and what they may reach (docs/security.md). */
      sandbox: sandboxConfigSchema.default(DEFAULT_SANDBOX_CONFIG),
      /** The folder file tools and commands act in; default: the git root above the current folder, else the current folder. */
      workspace: z.string().min(1).max(4096).optional(),
      /** Model requests one cw send may make in its loop. */
      max_steps: z.number().int().min(1).max(200).optional(),
      tool_limits: toolLimits.default({}),
      /** Replace secret-shaped text in user messages and tool results before it goes to a model (docs/security.md). */
      redact_outbound: z.boolean().default(true),
      /** System-prompt layers after the base (AGENTS.md files) and the turn-context block. */
      context: contextConfig.default({ project_instructions: true, turn_context: true }),
      /** Programs cw send runs on a new prompt before it resolves it (docs/hooks.md). */
      hooks: hooksConfig.default({ message_submit: [] }),
      /** Summarise older turns when the next request nears the route's input budget (docs/compaction.md). */
      compaction: compactionConfig.default({ enabled: true, threshold: 0.8, keep_recent_turns: 1 }),
      /** With `route: "auto"`: which routes a classifier chooses from, and where it runs (docs/auto-routing.md). */
      auto: autoConfig.optional(),
    })
    .strict()
    .refine((config) => config.route !== 'auto' || config.auto !== undefined, {
      message: 'route auto needs an auto object with classifier_route and candidates (docs/auto-routing.md)',
      path: ['route'],
    }),
);

type ParsedConfig = z.output<typeof cwConfigSchema>;

/** A validated config: its complete custom routes under `routes`, the ones still being written aside. */
export type CwConfig = Omit<ParsedConfig, 'routes'> & {
  routes: Record<string, CustomRouteConfig>;
  /** Routes config.json names that still miss a required field, with the fields each misses. */
  readonly incompleteRoutes?: Readonly<Record<string, readonly string[]>>;
};

/** The config the schema accepted, with each route that misses a required field set aside. */
export function settleRoutes(parsed: ParsedConfig): CwConfig {
  const incomplete: Record<string, readonly string[]> = {};
  const complete: Record<string, CustomRouteConfig> = {};
  for (const [routeId, route] of Object.entries(parsed.routes)) {
    const missing = REQUIRED_ROUTE_FIELDS.filter((field) => route[field] === undefined);
    if (missing.length > 0) incomplete[routeId] = missing;
    else complete[routeId] = route as CustomRouteConfig;
  }
  // Nothing aside: the parsed value as is, so a recorded check's frozen output stays what it was.
  if (Object.keys(incomplete).length === 0) return parsed as CwConfig;
  return { ...parsed, routes: complete, incompleteRoutes: incomplete };
}
/** The tool gates and surface budget from config. */
export type ToolGatesConfig = z.output<typeof toolGates>;
/** Timeouts as config writes them. */
export type TimeoutsConfig = z.output<typeof timeoutsConfig>;
/** One message-submit hook from config, defaults filled in. */
export type MessageSubmitHookConfig = z.output<typeof messageSubmitHook>;
/** Auto routing's config: the classifier route and the candidates. */
export type AutoRoutingConfig = z.output<typeof autoConfig>;
/** The compaction policy from config, defaults filled in. */
export type CompactionConfig = z.output<typeof compactionConfig>;
/** One custom route from config. */
export type CustomRouteConfig = z.output<typeof customRoute>;

const MAX_LISTED_PROBLEMS = 50;

/**
 * config.json cannot be used. Every problem is listed, one per line, each naming the field, its line
 * and column, what was found and what is accepted; the lines are cw's words and showable labels only.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly exitCode = 1;
  /** The message as printed: every problem line, joined by newlines. */
  readonly safeMessage: string;
  /** One printable line per problem. */
  readonly problems: readonly string[];
  constructor(allProblems: readonly string[]) {
    // A file that is not JSON at all (a binary pasted in) could yield thousands of lines.
    const problems =
      allProblems.length > MAX_LISTED_PROBLEMS
        ? [
            ...allProblems.slice(0, MAX_LISTED_PROBLEMS),
            `config.json: ${allProblems.length - MAX_LISTED_PROBLEMS} more problems not listed`,
          ]
        : allProblems;
    const text = problems.join('\n');
    super(text);
    this.safeMessage = text;
    this.problems = problems;
  }
}

/** What a config check needs beyond the text: values plugins supply that the schema cannot list. */
export interface ConfigCheckOptions {
  /** The dialect ids loaded plugins registered; listed when a route's dialect is not accepted. */
  readonly dialectIds?: readonly string[];
  /** Refuse a field written twice in one object (default true); commands that only read take the last, as JSON does. */
  readonly refuseDuplicateFields?: boolean;
}

/** A config text checked: the config when it is valid, else every problem found in it. */
export type ConfigCheck =
  | { readonly ok: true; readonly config: CwConfig; readonly parsed: ConfigText }
  | { readonly ok: false; readonly problems: readonly ConfigProblem[]; readonly parsed: ConfigText };

let fieldNames: ReadonlySet<string> | undefined;

/** Every field name the config schema declares: cw's own words, always printable in a path. */
export function configFieldNames(): ReadonlySet<string> {
  fieldNames ??= schemaFieldNames(cwConfigSchema);
  return fieldNames;
}

/** Checks config.json text (JSONC: comments and trailing commas allowed) and lists every problem in it. */
export async function checkConfigText(text: string, options: ConfigCheckOptions = {}): Promise<ConfigCheck> {
  const parsed = await parseConfigText(text);
  const names = configFieldNames();
  const before = textProblems(parsed, names, options.refuseDuplicateFields ?? true);
  if (before.length > 0) return { ok: false, problems: before, parsed };
  const result = cwConfigSchema.safeParse(parsed.value);
  if (result.success) return { ok: true, config: settleRoutes(result.data), parsed };
  const accepted = (path: readonly ConfigPathSegment[]): readonly string[] | undefined =>
    path.length === 3 && path[0] === 'routes' && path[2] === 'dialect' && options.dialectIds?.length
      ? options.dialectIds
      : undefined;
  // An MCP entry's shape is chosen by the key it has (url or command), so its fields are named here.
  const knownFields = (path: readonly ConfigPathSegment[]): readonly string[] | undefined => {
    if (path.length !== 2 || path[0] !== 'mcpServers') return undefined;
    const entry = (parsed.value as { mcpServers?: Record<string, unknown> }).mcpServers?.[String(path[1])];
    const shape =
      typeof entry === 'object' && entry !== null && Object.hasOwn(entry, 'url') ? mcpHttpServer : mcpStdioServer;
    return Object.keys(shape.shape);
  };
  const problems = schemaProblems(cwConfigSchema, result.error.issues, parsed, accepted, names, knownFields);
  return { ok: false, problems, parsed };
}

/** The config file's place in the cw home. */
export function configFile(home: string): string {
  return join(home, 'config.json');
}

/** Reads config.json as text; null when there is none. A read failure is a ConfigError naming only the code. */
export async function readConfigText(home: string): Promise<string | null> {
  try {
    return await readFile(configFile(home), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new ConfigError([`config.json: cannot be read (${code ?? 'read error'})`]);
  }
}

/** Reads and validates `config.json` in the cw home; a missing file is an empty config. */
export async function loadConfig(home: string, options: ConfigCheckOptions = {}): Promise<CwConfig> {
  const text = await readConfigText(home);
  if (text === null) return checkedConfig({});
  // Plain valid JSON that the schema accepts needs no JSONC parser: the common case stays fast. A
  // field written twice is taken last, as JSON does, on either path; cw config validate reports it.
  const plain = plainJson(text);
  if (plain !== undefined) {
    const quick = checkWith('cw-config', cwConfigSchema, plain.value);
    if (quick.success) return settleRoutes(quick.data);
  }
  const checked = await checkConfigText(text, { refuseDuplicateFields: false, ...options });
  if (!checked.ok) throw new ConfigError(checked.problems.map(formatConfigProblem));
  return checked.config;
}

/** The empty config's defaults. The schema accepts `{}`, so a failure here is a bug in the schema. */
function checkedConfig(value: Record<string, never>): CwConfig {
  const checked = checkWith('cw-config', cwConfigSchema, value);
  if (!checked.success)
    throw new Error(`the config schema refuses an empty config: ${checked.error.issues[0]?.message}`);
  return settleRoutes(checked.data);
}

function plainJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
