// The slash commands of the interactive session (docs/cli.md, "cw chat"): their names, what each
// takes, and the parser that turns a typed line into one. Parsing is pure so it is tested alone;
// chat-commands.ts carries them out.

/** One slash command: its name (without `/`), what it takes, and one line of help. */
export interface SlashCommandSpec {
  readonly name: string;
  readonly args: string;
  readonly help: string;
}

/** Every slash command, in the order /help lists them. */
export const SLASH_COMMANDS = [
  { name: 'help', args: '', help: 'list these commands and the keys' },
  { name: 'preview', args: '[prompt]', help: 'the manifest of the next turn, as cw preview-request shows it' },
  { name: 'route', args: '<route>', help: 'use this route for the next turns (cw routes lists them)' },
  { name: 'model', args: '<model>|<route/model>', help: 'use this model for the next turns' },
  { name: 'reasoning', args: '<level>', help: 'off, minimal, low, medium, high, xhigh, max or auto' },
  { name: 'approval', args: '<posture>', help: 'what tool calls may do: never, read-only, workspace, ask' },
  { name: 'new', args: '', help: 'start a fresh session' },
  { name: 'resume', args: '[session]', help: 'go back to a session (default: the most recently used one)' },
  { name: 'sessions', args: '', help: "this workspace's sessions" },
  { name: 'compact', args: '', help: 'replace older turns with a summary now' },
  { name: 'goal', args: '[text|clear]', help: "show, set or clear the session's goal" },
  { name: 'mcp', args: '', help: 'the MCP servers and their state' },
  { name: 'skills', args: '[use <name>]', help: 'list skills, or wrap the next prompt in one' },
  { name: 'exit', args: '', help: 'leave the session (also Ctrl-D)' },
] as const satisfies readonly SlashCommandSpec[];

/** A slash command's name. */
export type SlashCommandName = (typeof SLASH_COMMANDS)[number]['name'];

/** A typed line read as a slash command: the command and the rest of the line, or a one-line error. */
export type SlashParse =
  | { readonly kind: 'command'; readonly name: SlashCommandName; readonly rest: string }
  /** `/server:prompt name=value …`: an MCP server's prompt, run as the next turn's prompt (docs/mcp.md, "Prompts"). */
  | { readonly kind: 'mcp-prompt'; readonly ref: string; readonly args: readonly string[] }
  | { readonly kind: 'error'; readonly text: string };

const NAME = /^\/([a-z-]*)(?:\s+([\s\S]*))?$/u;
// A server name as config allows it, a colon, then the prompt's name: no built-in command has a colon.
const SERVER_PROMPT = /^\/([A-Za-z0-9_.-]+):(\S+)(?:\s+([\s\S]*))?$/u;

/**
 * Reads a line that starts with `/`; null for any other line (a prompt). `//text` is a prompt that
 * starts with `/`, so a path can still be sent. `/server:prompt` names an MCP server's prompt. An
 * unknown name is an error that names the nearest one.
 */
export function parseSlashCommand(line: string): SlashParse | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('/') || trimmed.startsWith('//')) return null;
  const serverPrompt = SERVER_PROMPT.exec(trimmed);
  if (serverPrompt !== null)
    return {
      kind: 'mcp-prompt',
      ref: `${serverPrompt[1]}/${serverPrompt[2]}`,
      args: (serverPrompt[3] ?? '').split(/\s+/u).filter((word) => word !== ''),
    };
  const match = NAME.exec(trimmed);
  const typed = match?.[1] ?? '';
  const spec = SLASH_COMMANDS.find((command) => command.name === typed);
  if (match === null || spec === undefined) {
    const near = match === null ? undefined : nearestCommand(typed);
    return {
      kind: 'error',
      text: `unknown command${match === null || typed === '' ? '' : ` /${typed}`}.${near === undefined ? '' : ` Did you mean /${near}?`} /help lists the commands; start a prompt with // to send a leading /`,
    };
  }
  return { kind: 'command', name: spec.name, rest: (match[2] ?? '').trim() };
}

/** The commands whose name starts with `typed`, for completion. */
export function commandsStartingWith(typed: string): SlashCommandName[] {
  return SLASH_COMMANDS.filter((command) => command.name.startsWith(typed)).map((command) => command.name);
}

/** The one command `typed` starts, or the one within two edits of it. */
function nearestCommand(typed: string): string | undefined {
  if (typed === '') return undefined;
  const starts = commandsStartingWith(typed);
  if (starts.length === 1) return starts[0];
  let best: { name: string; distance: number } | undefined;
  for (const { name } of SLASH_COMMANDS) {
    const distance = editDistance(typed, name);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++)
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (left[i - 1] === right[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[right.length] ?? 0;
}

/** The help text /help prints: the commands, then the keys. */
export function slashHelp(): string {
  const width = Math.max(...SLASH_COMMANDS.map((command) => `/${command.name} ${command.args}`.length));
  const lines = SLASH_COMMANDS.map(
    (command) => `  ${`/${command.name} ${command.args}`.padEnd(width)}  ${command.help}`,
  );
  return [
    'Commands:',
    ...lines,
    `  ${'/server:prompt [name=value …]'.padEnd(width)}  run an MCP server's prompt (cw mcp prompts lists them)`,
    'Keys:',
    '  Tab      complete a command, a value or an @path',
    '  Ctrl-C   cancel the running turn; at the prompt, press it twice to leave',
    '  Ctrl-D   leave the session',
    '  Up/Down  earlier prompts (kept across sessions)',
    '',
  ].join('\n');
}
