import type { SnapshotRegistry } from '../snapshot/snapshot-registry.js';
import type { ToolCall } from '../prompt/conversation.js';
import { isAbsolute, relative } from 'node:path';
import type { ToolArguments, ToolContext, ToolImage, ToolImplementation } from '../tools/tool-contract.js';
import type { ApprovalPosture } from '../config/approval-posture.js';
import { decideApproval, type ApprovalRules } from './approval-policy.js';
import { type ApprovalPlace, ApprovalStore, type AskAnswer } from './approval-store.js';
import { type FileChangeSummary, type FileDiff, proposedDiff } from './file-change.js';
import { checkToolArguments } from './validate-tool-arguments.js';

/** How one call ended, as the session stores it and the person sees it. */
export type ToolCallStatus = 'ok' | 'error' | 'cancelled' | 'refused' | 'invalid' | 'not-executed' | 'unknown';

/** One call and its result. */
export interface ToolCallRecord {
  readonly call: ToolCall;
  readonly status: ToolCallStatus;
  /** What the model reads as the result. */
  readonly content: string;
  readonly durationMs: number;
  /** A short, terminal-safe label of the arguments, for the status line. */
  readonly summary: string;
  /** Images the result carries (an MCP tool's), stored with it for routes that take images. */
  readonly images?: readonly ToolImage[];
  /** The files a call that ran `ok` changed, with lines added and removed (its tool said what it writes). */
  readonly changes?: readonly FileChangeSummary[];
}

/** A call a person is asked about: its id (to match the call's later events), tool, label and the model's arguments. */
export interface AskedCall {
  readonly id: string;
  readonly name: string;
  readonly summary: string;
  /** The model's arguments as it produced them (a JSON text), for a host that shows them (an editor's diff). */
  readonly arguments: string;
  /** Set when the call failed inside the sandbox: the question is a one-time run outside it, and this is why. */
  readonly outsideSandbox?: string;
  /** The allow rule that would let this call run unasked (`shell(npm test)`), for a host that keeps it. */
  readonly rule?: string;
  /** What the call will do, when the tool says (an MCP call's arguments and annotations), one line each. */
  readonly details?: readonly string[];
  /** The MCP server the tool comes from: `always-server` is an answer only then. */
  readonly server?: string;
  /** The change the call would make to a file, as a diff with a workspace-relative path. */
  readonly change?: FileDiff;
}

export type { AskAnswer } from './approval-store.js';

/** Everything running a reply's tool calls needs. */
export interface RunToolCallsOptions {
  readonly registry: SnapshotRegistry;
  /** Tools that live outside the registry for this command (the MCP servers' tools). */
  readonly extraTools?: ReadonlyMap<string, ToolImplementation>;
  readonly posture: ApprovalPosture;
  readonly rules: ApprovalRules;
  readonly context: ToolContext;
  /** Asks the person about one call; absent means no one can be asked, and `ask` acts as `read-only`. */
  readonly ask?: (call: AskedCall) => Promise<AskAnswer>;
  /** Where "always" answers are kept (the host's, across its turns); default: one for this run only. */
  readonly approvals?: ApprovalStore;
  /** Where a `workspace` answer is kept; without it, `workspace` lasts as `always` does. */
  readonly place?: ApprovalPlace;
  /**
   * The sandbox is on but this machine has none: command tools the posture would run unseen are asked
   * about instead (docs/security.md).
   */
  readonly askForCommands?: boolean;
  /**
   * Records that `calls` are about to start, before any of them does (docs/agent-loop.md, "After a
   * crash"); once per batch. A call it cannot record does not run.
   */
  readonly beforeStart?: (calls: readonly ToolCall[]) => Promise<void>;
  /** Test runs only: where a step may be held to land a signal or a kill at an exact point. */
  readonly pause?: (point: string) => Promise<void>;
  readonly onStart?: (call: ToolCall, summary: string) => void;
  readonly onEnd?: (record: ToolCallRecord) => void;
}

const NOT_EXECUTED = 'Not executed: the run stopped before this call ran.';
const NOT_RECORDED = 'Not executed: cw could not record that this call was starting, so it did not run it.';

/**
 * Runs one reply's tool calls and answers every one of them, in call order. Calls that only read
 * run together; a call that writes or runs a command waits for everything before it and runs alone,
 * so the model's order of effects is kept. Nothing here throws: an unknown tool, bad arguments, a
 * refusal or a failing tool is a result the model can read and act on.
 */
export async function runToolCalls(
  calls: readonly ToolCall[],
  options: RunToolCallsOptions,
): Promise<ToolCallRecord[]> {
  const records: ToolCallRecord[] = [];
  let batch: { tool: ToolImplementation; call: ToolCall }[] = [];
  const flush = async (): Promise<void> => {
    const starting = batch;
    batch = [];
    if (starting.length === 0) return;
    records.push(...(await startAll(starting, options)));
  };
  for (const call of calls) {
    const tool = options.registry.tool(call.name) ?? options.extraTools?.get(call.name);
    if (tool?.readOnly === true && (await verdictFor(tool, call, '', options)) === 'run') {
      batch.push({ tool, call });
      continue;
    }
    await flush();
    records.push(await handleAlone(tool, call, options));
  }
  await flush();
  return records;
}

/** Marks a batch started, then runs it; after a Ctrl-C that landed meanwhile, none of it starts. */
async function startAll(
  batch: readonly { tool: ToolImplementation; call: ToolCall }[],
  options: RunToolCallsOptions,
): Promise<ToolCallRecord[]> {
  await options.pause?.('before-start');
  const refuse = (content: string): ToolCallRecord[] =>
    batch.map(({ tool, call }) => finish(call, 'not-executed', content, 0, summaryOf(tool, call), options));
  if (options.context.signal.aborted) return refuse(NOT_EXECUTED);
  try {
    await options.beforeStart?.(batch.map(({ call }) => call));
  } catch {
    return refuse(NOT_RECORDED);
  }
  await options.pause?.('marked-started');
  return Promise.all(batch.map(({ tool, call }) => runOne(tool, call, options)));
}

function summaryOf(tool: ToolImplementation, call: ToolCall): string {
  try {
    const args: unknown = JSON.parse(call.arguments);
    return args !== null && typeof args === 'object' && !Array.isArray(args)
      ? summarize(tool, args as Parameters<typeof summarize>[1])
      : '';
  } catch {
    return '';
  }
}

async function handleAlone(
  tool: ToolImplementation | undefined,
  call: ToolCall,
  options: RunToolCallsOptions,
): Promise<ToolCallRecord> {
  if (tool === undefined) {
    const known = [
      ...options.registry.toolCatalog.map((entry) => entry.name),
      ...(options.extraTools?.keys() ?? []),
    ].join(', ');
    return finish(
      call,
      'invalid',
      `Unknown tool "${call.name}". The tools you can call are: ${known}.`,
      0,
      '',
      options,
    );
  }
  const checked = await checkToolArguments(call.arguments, tool.inputSchema);
  const summary = checked.ok ? summarize(tool, checked.args) : '';
  const verdict = await verdictFor(tool, call, summary, options);
  if (verdict === 'run') return (await startAll([{ tool, call }], options))[0] as ToolCallRecord;
  if (verdict === 'not-executed') return finish(call, 'not-executed', NOT_EXECUTED, 0, summary, options);
  if (typeof verdict === 'object')
    return finish(
      call,
      'refused',
      `Refused: the user declined this call, saying: ${verdict.reason}. Do not retry it as it was; take what they said into account.`,
      0,
      summary,
      options,
    );
  const why =
    verdict === 'refused-unconfined'
      ? 'no sandbox is available to run commands in, and no one could be asked to allow it'
      : verdict === 'refused-by-person'
        ? 'the user declined this call'
        : `the approval settings (${options.posture === 'ask' && options.ask === undefined ? 'ask, with no one to ask: read-only' : options.posture}${verdict === 'refused-by-rule' ? ', a deny rule' : ''}) do not allow it`;
  return finish(
    call,
    'refused',
    `Refused: ${why}. Do not retry it; continue without it or explain what is needed.`,
    0,
    summary,
    options,
  );
}

type Verdict =
  | 'run'
  | 'refused-by-rule'
  | 'refused-by-posture'
  | 'refused-by-person'
  | 'refused-unconfined'
  | 'not-executed';

async function verdictFor(
  tool: ToolImplementation,
  call: ToolCall,
  summary: string,
  options: RunToolCallsOptions,
): Promise<Verdict | { readonly reason: string }> {
  if (options.context.signal.aborted) return 'not-executed';
  let command: string | null = null;
  if (tool.commandOf) {
    const checked = await checkToolArguments(call.arguments, tool.inputSchema);
    command = checked.ok ? tool.commandOf(checked.args) : null;
  }
  // Without anyone to ask, `ask` falls back to `read-only`: nothing that writes runs unseen.
  const posture = options.posture === 'ask' && options.ask === undefined ? 'read-only' : options.posture;
  const decided = decideApproval(
    { name: tool.name, readOnly: tool.readOnly, command, ...(tool.mcpServer ? { mcpServer: tool.mcpServer } : {}) },
    posture,
    options.rules,
  );
  // Without the sandbox it expected, a command the posture alone would run is asked about, one by one.
  const decision =
    decided.verdict === 'run' && decided.because === 'posture' && options.askForCommands === true && tool.commandOf
      ? ({ verdict: 'ask' } as const)
      : decided;
  switch (decision.verdict) {
    case 'run':
      return 'run';
    case 'refuse':
      return decision.because === 'rule' ? 'refused-by-rule' : 'refused-by-posture';
    case 'return':
      return 'not-executed';
    case 'ask': {
      const approvals = storeOf(options);
      const asked = { name: tool.name, ...(tool.mcpServer ? { server: tool.mcpServer } : {}) };
      if (approvals.allows(asked)) return 'run';
      if (options.ask === undefined && options.askForCommands === true && posture !== 'read-only')
        return 'refused-unconfined';
      const rule = command === null ? tool.name : `${tool.name}(${command})`;
      const details = await approvalDetails(tool, call, options.context.workspace);
      const change = await diffOf(tool, call, options);
      const answer: AskAnswer = options.ask
        ? await options.ask({
            id: call.id,
            name: tool.name,
            summary,
            arguments: call.arguments,
            rule,
            ...(details ? { details } : {}),
            ...(tool.mcpServer ? { server: tool.mcpServer } : {}),
            ...(change ? { change } : {}),
          })
        : 'no';
      const where = options.place ? { ...options.place, rules: options.rules } : undefined;
      const decision = await approvals.take({ ...asked, rule }, answer, where);
      if (decision.run) return 'run';
      return decision.reason === null ? 'refused-by-person' : { reason: decision.reason };
    }
    default: {
      const unknown: never = decision;
      throw new Error(`unknown verdict ${JSON.stringify(unknown)}`);
    }
  }
}

async function runOne(tool: ToolImplementation, call: ToolCall, options: RunToolCallsOptions): Promise<ToolCallRecord> {
  const checked = await checkToolArguments(call.arguments, tool.inputSchema);
  if (!checked.ok)
    return finish(call, 'invalid', `Invalid arguments for ${tool.name}: ${checked.problem}.`, 0, '', options);
  const summary = summarize(tool, checked.args);
  if (options.context.signal.aborted) return finish(call, 'not-executed', NOT_EXECUTED, 0, summary, options);
  // What the call will change, read before it runs: the summary the person sees after (+N −M).
  const change = await diffOf(tool, call, options);
  options.onStart?.(call, summary);
  const started = Date.now();
  try {
    const outcome = await tool.execute(checked.args, contextFor(tool, call, summary, options));
    const content = capped(outcome.content, options.context.limits.outputBytes);
    // Stopped by Ctrl-C is not a failure of the call: it is stored as `cancelled` (docs/agent-loop.md).
    const status = outcome.status === 'error' && options.context.signal.aborted ? 'cancelled' : outcome.status;
    const changes =
      status === 'ok' && change !== null
        ? [{ path: change.path, added: change.added, removed: change.removed }]
        : undefined;
    return finish(call, status, content, Date.now() - started, summary, options, outcome.images, changes);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return finish(call, 'error', `The tool failed: ${message}`, Date.now() - started, summary, options);
  }
}

/** The call's context: under `ask`, with the offer of a one-time run outside the sandbox. */
function contextFor(
  tool: ToolImplementation,
  call: ToolCall,
  summary: string,
  options: RunToolCallsOptions,
): ToolContext {
  const { ask, context } = options;
  if (options.posture !== 'ask' || ask === undefined || context.sandbox === undefined) return context;
  return {
    ...context,
    offerUnsandboxedRun: async (reason) => {
      const answer = await ask({
        id: call.id,
        name: tool.name,
        summary,
        arguments: call.arguments,
        outsideSandbox: reason,
      });
      // A run outside the sandbox is never kept: any answer that runs the call runs it this once.
      return answer !== 'no' && typeof answer !== 'object';
    },
  };
}

// One store per options object when the host gave none, so "always" lasts for the run.
const ownStores = new WeakMap<RunToolCallsOptions, ApprovalStore>();
function storeOf(options: RunToolCallsOptions): ApprovalStore {
  if (options.approvals) return options.approvals;
  let store = ownStores.get(options);
  if (store === undefined) {
    store = new ApprovalStore();
    ownStores.set(options, store);
  }
  return store;
}

// Each call's diff is read once: the approval shows it and the result counts it.
const diffs = new WeakMap<RunToolCallsOptions, Map<string, Promise<FileDiff | null>>>();
function diffOf(tool: ToolImplementation, call: ToolCall, options: RunToolCallsOptions): Promise<FileDiff | null> {
  if (!tool.fileChange) return Promise.resolve(null);
  let known = diffs.get(options);
  if (known === undefined) {
    known = new Map();
    diffs.set(options, known);
  }
  let diff = known.get(call.id);
  if (diff === undefined) {
    diff = checkToolArguments(call.arguments, tool.inputSchema).then((checked) =>
      checked.ok ? proposedDiff(tool, checked.args, options.context).catch(() => null) : null,
    );
    known.set(call.id, diff);
  }
  return diff;
}

/** What the person reads about a call before answering, when the tool says (an MCP call's arguments). */
async function approvalDetails(
  tool: ToolImplementation,
  call: ToolCall,
  workspace: string,
): Promise<readonly string[] | undefined> {
  if (!tool.describeForApproval) return undefined;
  const checked = await checkToolArguments(call.arguments, tool.inputSchema);
  if (!checked.ok) return undefined;
  try {
    return tool.describeForApproval(workspaceRelative(checked.args, workspace));
  } catch {
    return undefined;
  }
}

/** Arguments with absolute paths inside the workspace made relative: the person reads where, not the machine's layout. */
function workspaceRelative(args: ToolArguments, workspace: string): ToolArguments {
  const out: Record<string, ToolArguments[string]> = {};
  for (const [key, value] of Object.entries(args)) {
    const inside = typeof value === 'string' && isAbsolute(value) ? relative(workspace, value) : null;
    out[key] =
      inside !== null && !inside.startsWith('..') && !isAbsolute(inside) ? (inside === '' ? '.' : inside) : value;
  }
  return out;
}

function finish(
  call: ToolCall,
  status: ToolCallStatus,
  content: string,
  durationMs: number,
  summary: string,
  options: RunToolCallsOptions,
  images?: readonly ToolImage[],
  changes?: readonly FileChangeSummary[],
): ToolCallRecord {
  const record = {
    call,
    status,
    content,
    durationMs,
    summary,
    ...(images?.length ? { images } : {}),
    ...(changes?.length ? { changes } : {}),
  };
  options.onEnd?.(record);
  return record;
}

function summarize(
  tool: ToolImplementation,
  args: Parameters<NonNullable<ToolImplementation['summarize']>>[0],
): string {
  try {
    return tool.summarize?.(args) ?? '';
  } catch {
    return '';
  }
}

// A last bound for tools that do not bound themselves (third-party and MCP tools): their result
// still cannot flood the next request.
function capped(content: string, limit: number): string {
  if (Buffer.byteLength(content, 'utf8') <= limit) return content;
  const head = Buffer.from(content, 'utf8')
    .subarray(0, limit)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${head}\n[truncated: the result was longer than ${limit} bytes]`;
}
