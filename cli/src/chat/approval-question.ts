import type { AskAnswer } from '@cw/core';

// The approval asked inline under the `ask` posture: which call, the arguments that matter, and the
// answers. "Always" lasts for the session: for this tool, or, for an MCP tool, for its whole server.

/** The longest argument preview of an MCP call; the redactor bounds each value further. */
const MAX_PREVIEW = 240;

/** How a typed answer reads. */
export type ApprovalChoice = 'yes' | 'no' | 'always-tool' | 'always-server';

/** Reads a typed answer; null when it is none of the offered ones (the question is asked again). */
export function approvalChoiceOf(typed: string, mcp: boolean): ApprovalChoice | null {
  const answer = typed.trim().toLowerCase();
  if (answer === 'y' || answer === 'yes') return 'yes';
  if (answer === 'n' || answer === 'no' || answer === '') return 'no';
  if (answer === 'a' || answer === 'always') return 'always-tool';
  if (mcp && (answer === 's' || answer === 'server')) return 'always-server';
  return null;
}

/** What the loop is told for a choice: "always for this tool" is also kept by the loop for the rest of the turn. */
export function askAnswerOf(choice: ApprovalChoice): AskAnswer {
  return choice === 'always-tool' ? 'always' : choice === 'no' ? 'no' : 'yes';
}

/** The question: the call's own label (its path or command), MCP arguments below it, then the answers. */
export function approvalQuestion(
  call: { readonly name: string; readonly summary: string },
  mcp: { readonly server: string; readonly preview: string } | null,
  safe: (text: string) => string,
): string {
  const what = `${safe(call.name)}${call.summary === '' ? '' : ` ${safe(call.summary)}`}`;
  const args = mcp === null ? '' : `\n  arguments: ${mcp.preview}`;
  const server = mcp === null ? '' : ` / always this [s]erver (${safe(mcp.server)})`;
  return `run ${what}?${args}\n[y]es / [n]o / [a]lways this tool${server}: `;
}

/**
 * An MCP call's arguments, as `key: value` pairs through the error-text redactor: it keeps plain
 * words, withholds what looks like a secret or a path, and bounds the whole.
 */
export function argumentsPreview(argumentsText: string, redact: (text: string) => string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsText);
  } catch {
    return '(not JSON)';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return '(not an object)';
  const pairs = Object.entries(parsed as Record<string, unknown>).map(
    ([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  if (pairs.length === 0) return '(none)';
  const text = pairs.join(', ');
  return redact(text.length > MAX_PREVIEW ? `${text.slice(0, MAX_PREVIEW)}…` : text);
}
