import type { z as Z } from 'zod';
import type { AskAnswer, ToolCallStatus } from '../agent/run-tool-calls.js';
import { COST_REASONS } from '../plan/unavailable-reason.js';
import type { TurnInput } from '../plan-turn.js';
import { type Zod, zod } from '../validation/lazy-zod.js';
import type { LoopStop } from './agent-events.js';

// The published shape of a turn's events as JSON lines (`cw send --output-format stream-json`,
// docs/cli.md, "Event stream"). docs/events.schema.json is generated from this description at build
// time (scripts/generate-events-schema.mjs), and the line type the CLI prints is derived from it,
// so the file, the type and the printed lines cannot drift apart.

/** Every value of a closed union, listed once; a value the union gains and the list lacks fails to compile. */
function allOf<T extends string>() {
  return <const L extends readonly T[]>(values: L & ([T] extends [L[number]] ? unknown : never)): L => values;
}

// A registered notice kind: a built-in one, or a plugin's `<package>:<label>` (turn/notice-kinds.ts).
const NOTICE_KIND = /^(?:(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*:)?[a-z0-9]+(?:-[a-z0-9]+)*$/;
const TOOL_STATUSES = allOf<ToolCallStatus>()([
  'ok',
  'error',
  'cancelled',
  'refused',
  'invalid',
  'not-executed',
  'unknown',
]);
const LOOP_STOPS = allOf<LoopStop>()(['answered', 'tool-calls-returned', 'step-limit', 'interrupted']);
const TURN_INPUTS = allOf<TurnInput>()(['prompt', 'continuation']);
// How an answer is printed: a refusal with a reason prints as `no`.
const ANSWERS = allOf<Exclude<AskAnswer, object>>()(['yes', 'no', 'always', 'always-server', 'workspace']);

// As a string, so the schema's pattern reads as written (a regex literal would escape the slash).
const SESSION_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)?$/;
const SHA256 = /^[0-9a-f]{64}$/;

function lineSchemas(z: Zod) {
  const count = (minimum: number) => z.int().min(minimum);
  const sha256 = () => z.string().regex(SHA256);
  const sessionKey = () =>
    z.string().regex(SESSION_KEY).describe('The session\'s key: `<workspace key>/<name>` (docs/cli.md, "Sessions").');
  const sessionName = () => z.string().describe("The session's name, as `-s` takes it.");
  const line = <Type extends string, Shape extends Z.ZodRawShape>(type: Type, description: string, shape: Shape) =>
    z.strictObject({ type: z.literal(type), ...shape }).meta({ id: type, description });
  const usage = z
    .strictObject({
      input_tokens: count(0),
      output_tokens: count(0),
      cache_read_tokens: count(0)
        .optional()
        .describe('Of input_tokens, those read from the prompt cache, when the provider reports any.'),
      cache_write_tokens: count(0)
        .optional()
        .describe('Of input_tokens, those written to the prompt cache, when the provider reports any.'),
    })
    .nullable()
    .describe('Tokens the provider reported for one request; null when it reported none.');
  const cost = () =>
    z.union([
      z.strictObject({ usd: z.number().min(0) }),
      z.strictObject({ usd: z.null(), reason: z.enum(COST_REASONS) }),
    ]);
  return z
    .discriminatedUnion('type', [
      line('turn-start', 'First line: the session the turn goes to.', {
        session_id: sessionKey(),
        session: sessionName(),
      }),
      line(
        'notice',
        'A feature did something on its own (auto routing chose a route, compaction, an MCP server left out or reporting progress), or the turn waited for another send.',
        {
          kind: z
            .string()
            .regex(NOTICE_KIND)
            .describe(
              'A registered notice kind: a built-in one (auto-route, compaction, progress, warning, session-wait, stale-lock-broken) or a plugin\'s `<package>:<label>` (docs/plugin-authors.md, "Notices and gate reasons").',
            ),
          message: z.string().describe("cw's one-line wording, redacted."),
          fields: z
            .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
            .describe(
              "The notice's fields, as its kind registered them (names and types); identifiers made safe, text redacted.",
            ),
        },
      ),
      line(
        'projection-warning',
        "Tools the route cannot take were left off the first request (as --json's tool_projection_warning).",
        {
          code: z.literal('tool-projection-degraded'),
          omitted: z.array(z.unknown()).readonly(),
          omitted_count: count(0),
          more: count(0),
          tool_choice: z.unknown(),
        },
      ),
      line('step-start', 'A request is about to go out; body_sha256 is what cw preview-request showed for it.', {
        step: count(1),
        input: z
          .enum(TURN_INPUTS)
          .describe("A new prompt started the request, or the previous step's tool results (or a continued loop) did."),
        body_sha256: sha256(),
      }),
      line('text-delta', "Reply text as it arrives (the model's own text, unchanged).", { text: z.string() }),
      line('reasoning-delta', 'Reasoning text as it arrives, when the route streams it.', { text: z.string() }),
      line('retry', 'A failed attempt is retried after a delay, before any reply byte.', {
        attempt: count(1),
        delay_ms: count(0),
        cause: z.string().describe('An HTTP status or a connection error code.'),
      }),
      line('tool-call', 'The model called a tool; it is about to be run, asked about or refused.', {
        id: z.string(),
        name: z.string(),
        arguments: z
          .string()
          .describe("The model's arguments as it produced them (a JSON text), as --json prints them."),
        summary: z.string().describe("The tool's short label of the arguments (a path, a command)."),
      }),
      line('approval', 'The person at the terminal answered an `ask` approval.', {
        name: z.string(),
        summary: z.string(),
        decision: z.enum(ANSWERS),
        diff: z
          .string()
          .optional()
          .describe(
            'The file change the call proposed, as a plain unified diff; its path is relative to the workspace.',
          ),
      }),
      line('tool-result', "A call's outcome; the result text itself is what the model reads and is not printed.", {
        id: z.string(),
        name: z.string(),
        status: z.enum(TOOL_STATUSES),
        result_bytes: count(0),
        duration_ms: z.number().min(0),
        changes: z
          .array(
            z.strictObject({
              path: z.string().describe('Relative to the workspace, /-separated.'),
              added: count(0),
              removed: count(0),
            }),
          )
          .optional()
          .describe('The files an ok call changed (its tool said what it writes), with lines added and removed.'),
      }),
      line('step-finish', "A request's reply is complete and saved.", {
        step: count(1),
        body_sha256: sha256(),
        body_wire_sha256: sha256().describe('SHA-256 of the exact bytes the request went out as.'),
        finish_reason: z.string(),
        usage,
        cost: cost().describe('What this request cost, or null with the reason it is unknown (docs/cli.md, "Cost").'),
        tool_results: count(0),
      }),
      line('result', 'Last line of a turn that completed, or that Ctrl-C stopped.', {
        stopped: z.enum(LOOP_STOPS),
        session_id: sessionKey(),
        session: sessionName(),
        steps: count(0).describe('The requests whose reply was complete; 0 when Ctrl-C stopped the first.'),
        usage: z
          .strictObject({
            input_tokens: count(0),
            output_tokens: count(0),
            steps_without_usage: count(0).describe(
              'Requests whose provider reported no usage: the totals leave them out.',
            ),
          })
          .describe('Usage summed over every request of the turn.'),
        cost: cost().describe(
          "The turn's cost: its requests' costs added up; null with the first unknown one's reason when any is unknown.",
        ),
        session_cost: z
          .strictObject({
            usd: z.number().min(0),
            steps_without_cost: count(0).describe(
              'Requests of the session whose cost is unknown: the total leaves them out.',
            ),
          })
          .nullable()
          .describe(
            "The session's running total, this turn included: the known costs added up, and how many requests have no known cost. Null when Ctrl-C stopped the turn.",
          ),
        text: z.string().describe("The last reply's text."),
        tool_calls: z
          .array(
            z.strictObject({
              id: z.string(),
              name: z.string(),
              arguments: z.string().describe('The arguments as the model produced them: a JSON text.'),
            }),
          )
          .readonly()
          .describe("The last reply's tool calls (handed back unrun when stopped is tool-calls-returned)."),
      }),
      line('error', 'Last line of a turn that failed: the --json error document (docs/cli.md, "Errors").', {
        error: z.strictObject({
          kind: z.string(),
          status: z.int().nullable(),
          message: z.string(),
          exit_code: z.int(),
          provider: z
            .strictObject({ type: z.string().nullable(), code: z.string().nullable(), message: z.string().nullable() })
            .nullable(),
        }),
      }),
    ])
    .meta({
      title: 'cw send --output-format stream-json',
      description:
        'One line of `cw send --output-format stream-json`: each line is one JSON object, one of these events (docs/cli.md, "Event stream").',
    });
}

/** One line of the event stream, as printed (docs/events.schema.json). */
export type EventLine = Z.output<ReturnType<typeof lineSchemas>>;

let built: ReturnType<typeof lineSchemas> | undefined;

/** The zod description of one event-stream line; built on first use, so loading this module loads no zod. */
export function eventLineSchema(): ReturnType<typeof lineSchemas> {
  built ??= lineSchemas(zod());
  return built;
}

/** The exact text of docs/events.schema.json (draft 2020-12): 2-space indent and a final newline. */
export function eventsJsonSchemaText(): string {
  const schema = typeListsAsAnyOf(zod().toJSONSchema(eventLineSchema(), { io: 'output', target: 'draft-2020-12' }));
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** A list of types (`"type": ["string", "number"]`) as `anyOf`, so a strict validator (Ajv's strict mode) takes the file as is. */
function typeListsAsAnyOf<T>(value: T): T {
  if (Array.isArray(value)) return value.map(typeListsAsAnyOf) as T;
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, inner]) => [key, typeListsAsAnyOf(inner)] as const);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  const types = object['type'];
  if (!Array.isArray(types)) return object as T;
  const { type: _type, ...rest } = object;
  return { ...rest, anyOf: types.map((type) => ({ type })) } as T;
}
