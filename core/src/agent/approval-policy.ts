import type { ApprovalPosture } from '../config/approval-posture.js';

/** Per-tool rules in the style of `permissions` elsewhere: `read_file`, `shell(npm test)`, `shell(git diff:*)`. */
export interface ApprovalRules {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

/** A call as approval sees it. */
export interface CallForApproval {
  readonly name: string;
  readonly readOnly: boolean;
  /** The command line of a command tool, which rules match by prefix. */
  readonly command: string | null;
  /** The MCP server a tool comes from, which `mcp__<server>__*` rules name (docs/mcp.md). */
  readonly mcpServer?: string;
}

/** What happens to one call. */
export type ApprovalVerdict =
  | { readonly verdict: 'run'; readonly because: 'rule' | 'posture' }
  | { readonly verdict: 'refuse'; readonly because: 'rule' | 'posture' }
  | { readonly verdict: 'ask' }
  /** `never`: the call is handed back to the user, not run and not refused. */
  | { readonly verdict: 'return' };

// Shell operators that chain, pipe, substitute or redirect: a command holding one is not the simple
// command an allow rule names, whatever its first words are.
const COMPOUND = /[;&|`<>\n]|\$\(/;

/**
 * Decides one call. Deny rules win, then allow rules, then the posture: `read-only` runs only tools
 * that read, `workspace` runs everything (file tools stay confined to the workspace), `ask` runs tools
 * that read and asks about the rest, `never` runs nothing.
 */
export function decideApproval(call: CallForApproval, posture: ApprovalPosture, rules: ApprovalRules): ApprovalVerdict {
  if (posture === 'never') return { verdict: 'return' };
  if (rules.deny.some((rule) => matchesRule(rule, call, 'deny'))) return { verdict: 'refuse', because: 'rule' };
  if (rules.allow.some((rule) => matchesRule(rule, call, 'allow'))) return { verdict: 'run', because: 'rule' };
  switch (posture) {
    case 'read-only':
      return call.readOnly ? { verdict: 'run', because: 'posture' } : { verdict: 'refuse', because: 'posture' };
    case 'workspace':
      return { verdict: 'run', because: 'posture' };
    case 'ask':
      return call.readOnly ? { verdict: 'run', because: 'posture' } : { verdict: 'ask' };
    default: {
      const unknown: never = posture;
      throw new Error(`unknown approval posture ${String(unknown)}`);
    }
  }
}

/**
 * Whether a rule names a call. `tool` names every call of the tool; `tool(command)` names exactly
 * that command; `tool(prefix:*)` or `tool(prefix*)` names commands starting with the prefix. An
 * allow rule with a command never matches a compound command (`npm test && curl …`); a deny rule
 * matches if any part of one does.
 */
export function matchesRule(rule: string, call: CallForApproval, kind: 'allow' | 'deny'): boolean {
  const server = mcpServerOfRule(rule);
  if (server !== null && call.mcpServer === server) return true;
  const parsed = /^([A-Za-z0-9_-]+)(?:\((.*)\))?$/s.exec(rule.trim());
  if (!parsed || parsed[1] !== call.name) return false;
  const specifier = parsed[2];
  if (specifier === undefined) return true;
  if (call.command === null) return false;
  const command = call.command.trim();
  const prefix = specifier.endsWith(':*')
    ? specifier.slice(0, -2)
    : specifier.endsWith('*')
      ? specifier.slice(0, -1)
      : null;
  const matches = (part: string): boolean => (prefix === null ? part === specifier.trim() : part.startsWith(prefix));
  if (kind === 'allow') return !COMPOUND.test(command) && matches(command);
  return command.split(/\|\||&&|[;&|\n]/).some((part) => matches(part.trim())) || matches(command);
}

// `mcp__<server>__*` and `mcp__<server>` name every tool of one MCP server, whatever the tool's sent
// name became (an encoded or hashed name still belongs to its server).
const SERVER_RULE = /^mcp__([A-Za-z0-9_-]{1,64}?)(?:__\*)?$/;

/** The MCP server a rule names as a whole (`mcp__<server>__*` or `mcp__<server>`), or null. */
export function mcpServerOfRule(rule: string): string | null {
  const parsed = SERVER_RULE.exec(rule.trim());
  return parsed?.[1] ?? null;
}
