import { UsageError } from './usage-error.js';

/** A server prompt to run as the turn's prompt: `--mcp-prompt server/name` and its `--arg k=v` values. */
export interface McpPromptChoice {
  readonly ref: string;
  readonly args: Readonly<Record<string, string>>;
}

// Argument names as servers declare them; anything else is most likely a value typed without its name.
const ARG_NAME = /^[A-Za-z0-9_.-]{1,64}$/u;

/**
 * The server prompt a send runs instead of `--prompt`, or null. `--arg` needs `--mcp-prompt`, the two
 * prompt sources exclude each other, and every `--arg` is `name=value` with each name once (docs/mcp.md,
 * "Prompts"). Errors name an `--arg` by its place, never by what it holds: it may be anything typed.
 */
export function mcpPromptChoice(
  flags: { readonly 'mcp-prompt'?: string; readonly arg?: readonly string[] },
  prompt: string | undefined,
  usage: string,
): McpPromptChoice | null {
  const given = flags.arg ?? [];
  if (flags['mcp-prompt'] === undefined) {
    if (given.length > 0) throw new UsageError('`--arg` gives a value to `--mcp-prompt`; name the prompt too.', usage);
    return null;
  }
  if (prompt !== undefined)
    throw new UsageError('`--mcp-prompt` and `--prompt` both give the prompt; use one of them.', usage);
  const args: Record<string, string> = Object.create(null);
  for (const [index, pair] of given.entries()) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? '' : pair.slice(0, equals);
    if (!ARG_NAME.test(name))
      throw new UsageError(`\`--arg\` ${index + 1} is not name=value (a name of letters, digits, _ . -).`, usage);
    if (Object.hasOwn(args, name))
      throw new UsageError(`\`--arg\` ${index + 1} repeats an earlier name; give each name once.`, usage);
    args[name] = pair.slice(equals + 1);
  }
  return { ref: flags['mcp-prompt'], args: { ...args } };
}
