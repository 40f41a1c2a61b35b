import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { APPROVAL_POSTURES } from '../agent/approval-policy.js';
import { hasMalformedEnvReference } from '../mcp/expand-env-references.js';
import { baseUrlSchema } from '../route/base-url.js';
import { safeIdentifier } from '../redaction/safe-label.js';
import { REASONING_SELECTIONS, labelSchema } from '../route/capability-row.js';

const customRoute = z
  .object({
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
  })
  .strict();

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
function referenceMap(names: RegExp, what: string) {
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
const mcpStdioServer = z
  .object({
    command: z.string().min(1).max(4096),
    args: z.array(z.string().max(32_768)).max(1024).default([]),
    /** Set in the server's environment, on top of a minimal base (PATH, HOME, …); values may be `${env:NAME}`. */
    env: referenceMap(ENV_VAR_NAME, 'environment variable names').default({}),
    /** The folder the server starts in; default: the folder cw runs in. */
    cwd: z.string().min(1).max(4096).optional(),
    disabled: z.boolean().default(false),
  })
  .strict();

/** A remote server cw speaks to over streamable HTTP. */
const mcpHttpServer = z
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
    headers: referenceMap(HEADER_NAME, 'HTTP header names').default({}),
    disabled: z.boolean().default(false),
  })
  .strict();

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
export const mcpServerConfigSchema = z.unknown().transform((value, context): McpServerConfig => {
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
});

const toolName = z.string().min(1).max(128);

const toolGates = z
  .object({
    /** Only these catalog tools may be sent; absent means no allow gate. */
    allow: z.array(toolName).max(1024).optional(),
    /** These catalog tools are never sent; absent means no deny gate. */
    deny: z.array(toolName).max(1024).optional(),
    /** `standard` keeps deferred tools behind discovery; `full` sends them up front too. */
    surface: z.enum(['standard', 'full']).default('standard'),
  })
  .strict();

// A day is longer than any one model exchange; a larger figure is a typo, not a wish.
const milliseconds = z.number().int().positive().max(86_400_000);

/** cw's own timeouts, each optional: what is left out keeps its default (docs/transport.md). */
const timeoutsConfig = z
  .object({
    connect_ms: milliseconds.optional(),
    first_byte_ms: milliseconds.optional(),
    idle_ms: milliseconds.optional(),
    total_ms: milliseconds.optional(),
  })
  .strict();

const retriesConfig = z
  .object({
    /** Retries after the first attempt; 0 turns retrying off. */
    max: z.number().int().min(0).max(10).optional(),
    initial_delay_ms: milliseconds.optional(),
    max_delay_ms: milliseconds.optional(),
  })
  .strict();

/** One permission rule: a tool name, optionally with a command in parentheses (`shell(npm test:*)`). */
const permissionRule = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[A-Za-z0-9_-]+(\(.*\))?$/s, 'must be a tool name, optionally followed by (command) or (prefix:*)');

const permissions = z
  .object({
    /** Calls these rules name run without asking, whatever the posture (except never). */
    allow: z.array(permissionRule).max(256).default([]),
    /** Calls these rules name are refused; deny wins over allow. */
    deny: z.array(permissionRule).max(256).default([]),
  })
  .strict();

const toolLimits = z
  .object({
    output_bytes: z.number().int().min(1_024).max(10_000_000).optional(),
    output_lines: z.number().int().min(10).max(100_000).optional(),
    command_timeout_ms: milliseconds.optional(),
  })
  .strict();

/** What is layered into the system prompt after the base (docs/project-context.md). */
const contextConfig = z
  .object({
    /** Append AGENTS.md from the cw home and from the workspace root down to the working folder. */
    project_instructions: z.boolean().default(true),
    /** Append the turn-context block: working folder, git branch and date. */
    turn_context: z.boolean().default(false),
  })
  .strict();

/** One program `cw send` runs on the prompt before it is resolved (docs/hooks.md). */
const messageSubmitHook = z
  .object({
    /** The program and its arguments; no shell is involved. */
    command: z.array(z.string().min(1).max(4096)).min(1).max(256),
    /** How long the hook may run before the send stops. */
    timeout_ms: z.number().int().positive().max(600_000).default(10_000),
  })
  .strict();

const hooksConfig = z
  .object({
    /** Run in order on every new prompt `cw send` submits; preview never runs them. */
    message_submit: z.array(messageSubmitHook).max(16).default([]),
  })
  .strict();

/** When cw send summarises older turns before a request (docs/compaction.md). */
const compactionConfig = z
  .object({
    /** false: never compact before a send; `cw compact` still works on demand. */
    enabled: z.boolean().default(true),
    /** The share of the route's input budget the next request's estimate must reach to compact first. */
    threshold: z.number().min(0.1).max(1).default(0.8),
    /** The latest user turns kept word for word; everything before them is summarised. */
    keep_recent_turns: z.number().int().min(1).max(50).default(1),
  })
  .strict();

const routeId = z.string().min(1).max(64);

/** One route auto routing may choose, with optional words telling the classifier when it fits. */
const autoCandidate = z.union([
  routeId,
  z.object({ route: routeId, when: z.string().min(1).max(500).optional() }).strict(),
]);

/** Auto model routing: a classifier route picks one of the candidates for each new prompt (docs/auto-routing.md). */
const autoConfig = z
  .object({
    /** The route the small classifying request goes to. */
    classifier_route: routeId,
    candidates: z.array(autoCandidate).min(1).max(16),
  })
  .strict();

/** The shape of `$CW_HOME/config.json`. Every field is optional: no file means the built-in default route. */
export const cwConfigSchema = z
  .object({
    route: z.string().min(1).max(64).optional(),
    model: z.string().min(1).max(256).optional(),
    reasoning: z.enum(REASONING_SELECTIONS).optional(),
    session: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, - or _')
      .optional(),
    routes: z.record(z.string().min(1).max(64), customRoute).default({}),
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
    /** The folder file tools and commands act in; default: the git root above the current folder, else the current folder. */
    workspace: z.string().min(1).max(4096).optional(),
    /** Model requests one cw send may make in its loop. */
    max_steps: z.number().int().min(1).max(200).optional(),
    tool_limits: toolLimits.default({}),
    /** Replace secret-shaped text in user messages and tool results before it goes to a model (docs/security.md). */
    redact_outbound: z.boolean().default(true),
    /** System-prompt layers after the base: AGENTS.md files and the turn-context block. */
    context: contextConfig.default({ project_instructions: true, turn_context: false }),
    /** Programs cw send runs on a new prompt before it resolves it (docs/hooks.md). */
    hooks: hooksConfig.default({ message_submit: [] }),
    /** Summarise older turns when the next request nears the route's input budget (docs/compaction.md). */
    compaction: compactionConfig.default({ enabled: true, threshold: 0.8, keep_recent_turns: 1 }),
    /** With `route: "auto"`: which routes a classifier chooses from, and where it runs (docs/auto-routing.md). */
    auto: autoConfig.optional(),
  })
  .strict()
  .refine(
    (config) => config.route !== 'auto' || config.auto !== undefined,
    'route auto needs an auto object with classifier_route and candidates (docs/auto-routing.md)',
  );

/** A validated config. */
export type CwConfig = z.output<typeof cwConfigSchema>;
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

/** A config problem the user must fix; the message names the file and the field, never the value. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly exitCode = 1;
  /** The message as printed: cw's own words, schema facts, and user keys only as safe labels. */
  readonly safeMessage: string;
  constructor(message: string, safeMessage: string = message) {
    super(message);
    this.safeMessage = safeMessage;
  }
}

/** Reads and validates `config.json` in the cw home; a missing file is an empty config. */
export async function loadConfig(home: string): Promise<CwConfig> {
  const file = join(home, 'config.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return cwConfigSchema.parse({});
    throw new ConfigError(
      `cannot read config.json in the cw home folder: ${(error as NodeJS.ErrnoException).code ?? 'read error'}`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ConfigError('config.json is not valid JSON: fix the syntax (a JSON object is expected)');
  }
  const parsed = cwConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path ?? [];
    const problem = issue ? describeProblem(issue) : 'is invalid';
    throw new ConfigError(
      `config.json ${describeField(path, String)}: ${problem}`,
      `config.json ${describeField(path, safeIdentifier)}: ${problem}`,
    );
  }
  return parsed.data;
}

/**
 * Names a config field in words. Route and server names are the user's own keys, so they stand as
 * separate words: the printer can then redact a hostile name without losing the rest of the message.
 */
function describeField(path: readonly PropertyKey[], label: (key: string) => string): string {
  const words = path.map(String);
  if (words.length === 0) return 'top level';
  const [first, key, ...rest] = words;
  if ((first === 'routes' || first === 'mcpServers') && key !== undefined) {
    return rest.length === 0 ? `${first} entry ${label(key)}` : `${first} entry ${label(key)}, field ${rest.join(' ')}`;
  }
  return `field ${words.join(' ')}`;
}

/**
 * Says what is wrong in cw's words. Zod's own messages quote the allowed values and sometimes the
 * user's keys; the allowed values are ours and worth showing, the user's keys are not.
 */
function describeProblem(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_type':
      return `must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}`;
    case 'unrecognized_keys':
      return `has ${issue.keys.length === 1 ? 'an unknown field' : `${issue.keys.length} unknown fields`}; see the README for the fields config.json takes`;
    case 'invalid_format':
      // A pattern's message is ours (set in the schema above) or zod's, which names the pattern only.
      if (issue.format === 'regex') return issue.message;
      return `must be a valid ${issue.format}${issue.format === 'url' ? ' (http or https)' : ''}`;
    case 'custom':
      // Our own refinements: the message is cw's words (set in the schema).
      return issue.message;
    case 'too_big':
      return `is too long or too large (at most ${String(issue.maximum)})`;
    case 'too_small':
      return `is too short or too small (at least ${String(issue.minimum)})`;
    default:
      return 'is invalid';
  }
}
