import { previewOutputOf } from '../flags/preview-output.js';
import { wordsBeforePrompt } from '../flags/prompt-words.js';
import { PREVIEW_REQUEST_USAGE } from '../flags/usage-lines.js';
import type { RuntimeSource } from '../entry/load-runtime.js';
import { type Exiter, reportErrorAs } from '../render/report-error.js';
import type { TurnChoices } from '../flags/turn-choices.js';

// Everything `cw preview-request` does once a parser has read its words. The oclif command and the
// oclif-free entry (fast-preview.ts) differ only in how they parse flags and find plugins; both end
// here, so what either prints, and how it fails, is one piece of code.

/** A preview command line as a flag parser reads it. */
export interface PreviewLine {
  /** Tokens in the order given: flags by name, other words as written. */
  readonly order: readonly { readonly flag?: string; readonly word?: string }[];
  readonly prompt: string | undefined;
  readonly choices: TurnChoices;
  readonly blocking: boolean;
}

/**
 * Runs a preview: `parse` reads the words (a UsageError it throws is reported like any failure),
 * `source` names the plugins and default route. `argv` is the words after the command name.
 */
export async function runPreview(
  argv: readonly string[],
  parse: () => Promise<PreviewLine>,
  source: () => RuntimeSource,
  exiter: Exiter,
): Promise<void> {
  try {
    const line = await parse();
    const output = previewOutputOf(line.order, line.prompt !== undefined, PREVIEW_REQUEST_USAGE);
    const core = await import('@cw/core');
    const { trailingFlagWarning } = await import('../flags/prompt-flag-warning.js');
    const warning = trailingFlagWarning(argv);
    if (warning !== null) process.stderr.write(`cw: ${core.terminalSafe(warning)}\n`);
    if (output === 'base-prompt') {
      process.stdout.write(core.BUNDLED_BASE_PROMPT);
      return;
    }
    const { promptFrom } = await import('../flags/stdin-prompt.js');
    const prompt = await promptFrom(line.prompt, PREVIEW_REQUEST_USAGE);
    const entrypoint = line.blocking ? ('blocking' as const) : ('streaming' as const);
    const { agentFor } = await import('../entry/load-runtime.js');
    const { agent, registry } = await agentFor(source());
    // Prepared as cw send prepares it (file mentions, the pending skill), reading only.
    const turn = await agent.preview(prompt, { overrides: line.choices, entrypoint });
    const { manifest } = turn;
    const { renderPluginProblems } = await import('../plugin-packages/render-plugin-problems.js');
    await renderPluginProblems(registry.problems);
    if (output === 'json') {
      process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
    } else {
      process.stdout.write(await previewTable(core, turn));
    }
  } catch (error) {
    await reportPreviewError(exiter, argv, error);
  }
}

/** The manifest table `cw preview-request` prints; the interactive session's /preview prints the same. */
export async function previewTable(
  core: typeof import('@cw/core'),
  turn: { readonly manifest: import('@cw/core').RequestManifest; readonly snapshot: import('@cw/core').CwSnapshot },
): Promise<string> {
  // The table is for the person who wrote the config: their own ids and hosts show as written.
  const userFacts = core.userFactLabels(turn.snapshot.config);
  const { renderManifestTable } = await import('../render/render-manifest-table.js');
  return renderManifestTable(turn.manifest, {
    color: useColor(),
    userFacts,
    reasons: turn.snapshot.registry.turn.reasons,
  });
}

/** Reports a preview failure and exits; oclif's own exit (diff's "they differ") passes through. */
export async function reportPreviewError(exiter: Exiter, argv: readonly string[], error: unknown): Promise<never> {
  if ((error as { oclif?: unknown }).oclif !== undefined) throw error;
  // A script that asked for JSON gets its failure as JSON too.
  // (The bare word `json` keeps the preview grammar's plain error line.)
  return reportErrorAs(exiter, error, wordsBeforePrompt(argv).includes('--json'));
}

/** Colour only on a terminal, and never when NO_COLOR is set to anything non-empty (no-color.org). */
export function useColor(): boolean {
  const noColor = process.env['NO_COLOR'];
  return process.stdout.isTTY === true && (noColor === undefined || noColor === '');
}
