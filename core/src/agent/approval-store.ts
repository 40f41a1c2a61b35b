import type { ApprovalPosture } from '../config/approval-posture.js';
import { redactSecrets } from '../redaction/redact-secrets.js';
import { terminalSafe } from '../redaction/terminal-safe.js';
import type { ApprovalRules } from './approval-policy.js';
import { keepProjectPermission, readProjectPermissions } from './project-permissions.js';

// The one place approvals are kept (docs/agent-loop.md, "Answers"): the posture a host chose, and the
// "always" answers a person gave, per tool and per MCP server for as long as the store lives (one
// command, one chat or editor session), and per workspace in the cw home. Every host hands the
// person's answer here and keeps no set of its own.

/** The longest refusal reason the model reads; the rest is cut. */
const MAX_REASON_CHARS = 500;

/**
 * The answer a person gives when asked about a call: run it once (`yes`), refuse it (`no`, or
 * `{ answer: 'no', reason }` to tell the model why), or run it and every later call of this tool
 * (`always`), of this MCP server (`always-server`), or of this allow rule in this workspace, kept
 * across sessions (`workspace`).
 */
export type AskAnswer =
  | 'yes'
  | 'no'
  | 'always'
  | 'always-server'
  | 'workspace'
  | { readonly answer: 'no'; readonly reason: string };

/** What a call is, as the store keeps answers about it. */
export interface ApprovedCall {
  readonly name: string;
  /** The MCP server the tool comes from, for `always-server`. */
  readonly server?: string;
  /** The allow rule `workspace` keeps (`shell(npm test)`). */
  readonly rule?: string;
}

/** What an answer decides: run the call, or refuse it with the person's reason (redacted) if they gave one. */
export type ApprovalDecision = { readonly run: true } | { readonly run: false; readonly reason: string | null };

/** Where a turn runs, for the rules kept per workspace. */
export interface ApprovalPlace {
  readonly home: string;
  readonly workspace: string;
}

/** The approvals of one host: its posture choice and every "always" answer (docs/agent-loop.md). */
export class ApprovalStore {
  /** The posture the host chose over config's (`--approval`, `/approval`, an editor's mode); undefined: config's. */
  posture: ApprovalPosture | undefined;
  readonly #tools = new Set<string>();
  readonly #servers = new Set<string>();

  constructor(posture?: ApprovalPosture) {
    this.posture = posture;
  }

  /**
   * The posture a turn runs under: `never` when tool runs are off, else the turn's own choice, else
   * the host's, else config's.
   */
  postureFor(
    configured: ApprovalPosture,
    options: { readonly noTools?: boolean; readonly approval?: ApprovalPosture } = {},
  ): ApprovalPosture {
    return options.noTools === true ? 'never' : (options.approval ?? this.posture ?? configured);
  }

  /** Config's rules and the ones kept for this workspace by answering `workspace`; a kept answer adds to `allow`. */
  async rulesFor(configured: ApprovalRules, place: ApprovalPlace): Promise<{ allow: string[]; deny: string[] }> {
    return {
      allow: [...configured.allow, ...(await readProjectPermissions(place.home, place.workspace))],
      deny: [...configured.deny],
    };
  }

  /** Whether an earlier `always` answer lets this call run without asking. */
  allows(call: ApprovedCall): boolean {
    return this.#tools.has(call.name) || (call.server !== undefined && this.#servers.has(call.server));
  }

  /**
   * Takes a person's answer about a call: keeps an `always` one (a `workspace` one in the cw home and
   * in `rules`, so it holds from the next call on) and says whether the call runs.
   */
  async take(
    call: ApprovedCall,
    answer: AskAnswer,
    where?: ApprovalPlace & { readonly rules: ApprovalRules },
  ): Promise<ApprovalDecision> {
    if (typeof answer === 'object') return { run: false, reason: refusalReason(answer.reason) };
    switch (answer) {
      case 'yes':
        return { run: true };
      case 'no':
        return { run: false, reason: null };
      case 'always':
        this.#tools.add(call.name);
        return { run: true };
      case 'always-server':
        // Only an MCP call has a server; for any other it is this tool, from now on.
        if (call.server !== undefined) this.#servers.add(call.server);
        else this.#tools.add(call.name);
        return { run: true };
      case 'workspace':
        if (call.rule === undefined || where === undefined) {
          this.#tools.add(call.name);
          return { run: true };
        }
        // Kept for this workspace (shown by cw config get permissions) and in force from now on.
        await keepProjectPermission(where.home, where.workspace, call.rule);
        // The turn's rules grow with it, so the next call it names runs unasked (a frozen list is left as it is).
        if (!where.rules.allow.includes(call.rule) && !Object.isFrozen(where.rules.allow))
          (where.rules.allow as string[]).push(call.rule);
        return { run: true };
      default: {
        // An answer this store does not know allows nothing.
        const unknown: never = answer;
        void unknown;
        return { run: false, reason: null };
      }
    }
  }
}

/** A reason as the model reads it: one line, no terminal controls, secrets withheld, bounded; null when blank. */
export function refusalReason(reason: string): string | null {
  const line = redactSecrets(terminalSafe(reason.replace(/\s+/g, ' ').trim()));
  if (line === '') return null;
  return line.length > MAX_REASON_CHARS ? `${line.slice(0, MAX_REASON_CHARS - 1)}…` : line;
}
