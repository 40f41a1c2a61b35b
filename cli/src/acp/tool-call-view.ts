import { isAbsolute, resolve } from 'node:path';
import type { AskedCall, ToolCallStatus } from '@cw/core';
import type * as acp from '@agentclientprotocol/sdk';

// How an editor shows one of cw's tool calls (docs/editors.md): an icon kind, a title, the files it
// touches (ACP wants absolute paths, in the workspace the editor opened) and, for an edit, the diff.
// Tools cw does not know (MCP servers', plugins') show as `other`, titled by name and label.

/** What an editor is told of a call before and while it runs. */
export interface ToolCallView {
  readonly kind: acp.ToolKind;
  readonly title: string;
  readonly locations: acp.ToolCallLocation[];
  readonly content: acp.ToolCallContent[];
  /** The model's arguments, parsed; the raw text when they are not a JSON object. */
  readonly rawInput: unknown;
}

// The workspace tools cw ships, by the kind ACP gives them an icon for.
const KINDS: Readonly<Record<string, acp.ToolKind>> = {
  read_file: 'read',
  edit_file: 'edit',
  list_directory: 'search',
  search: 'search',
  shell: 'execute',
};

/**
 * The view of a call from its tool's name, the model's arguments and the tool's own label of them
 * (`summary`, already made terminal-safe by the caller), with paths resolved in `workspace`.
 */
export function toolCallView(
  call: { name: string; arguments: string; change?: AskedCall['change'] },
  summary: string,
  workspace: string,
): ToolCallView {
  const args = argumentsObject(call.arguments);
  const kind = KINDS[call.name] ?? 'other';
  const path = typeof args?.['path'] === 'string' && args['path'] !== '' ? args['path'] : undefined;
  const absolute = path === undefined ? undefined : isAbsolute(path) ? path : resolve(workspace, path);
  const locations: acp.ToolCallLocation[] = absolute === undefined ? [] : [{ path: absolute }];
  const content: acp.ToolCallContent[] = [];
  // The change the core computed for the approval (docs/agent-loop.md): one diff per hunk, the lines
  // around the change included, as the terminal shows it.
  if (call.change !== undefined) content.push(...changeDiffs(call.change, workspace));
  else if (
    call.name === 'edit_file' &&
    absolute !== undefined &&
    typeof args?.['old_text'] === 'string' &&
    typeof args['new_text'] === 'string'
  )
    content.push({ type: 'diff', path: absolute, oldText: args['old_text'], newText: args['new_text'] });
  const title = summary === '' ? call.name : `${call.name} ${summary}`;
  return { kind, title, locations, content, rawInput: args ?? call.arguments };
}

function changeDiffs(change: NonNullable<AskedCall['change']>, workspace: string): acp.ToolCallContent[] {
  const path = resolve(workspace, change.path);
  const side = (hunk: (typeof change.hunks)[number], drop: '+' | '-'): string =>
    hunk.lines
      .filter((line) => line.kind !== drop)
      .map((line) => line.text)
      .join('');
  return change.hunks.map((hunk) => ({
    type: 'diff' as const,
    path,
    oldText: change.created ? null : side(hunk, '+'),
    newText: side(hunk, '-'),
  }));
}

/** The ACP status of a finished call: `ok` completed, anything else (refused, invalid, …) failed. */
export function finishedStatus(status: ToolCallStatus): acp.ToolCallStatus {
  return status === 'ok' ? 'completed' : 'failed';
}

function argumentsObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The fields of an ACP tool call a view describes, in `status`: what a `tool_call` update and a
 * permission request both carry. The title is made terminal-safe by `safe`.
 */
export function acpToolCallFields(
  id: string,
  view: ToolCallView,
  status: acp.ToolCallStatus,
  safe: (text: string) => string,
) {
  return {
    toolCallId: id,
    title: safe(view.title),
    kind: view.kind,
    status,
    locations: view.locations,
    content: view.content,
    rawInput: view.rawInput,
  };
}
