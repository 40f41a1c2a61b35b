import { Command } from '@oclif/core';
import { oclifFlagsOf } from '../flags/oclif-flags.js';
import { usageFlags } from '../flags/usage-lines.js';
import { runtimeSourceOf } from '../entry/load-runtime.js';
import { reportPreviewError, runPreview, useColor } from '../run/run-preview.js';

/** `cw preview-request`: describe the next turn's request, offline, without sending or writing anything. */
export default class PreviewRequest extends Command {
  static override summary = 'Show exactly what the next turn would send, without sending it';
  static override description =
    'Prints a redacted manifest of the next request: route, dialect, wire model, tools after projection, reasoning control, byte and token accounting, context headroom and whole-body hashes. Flags come first; --prompt takes the rest of the line as prompt text. `diff A.json B.json` compares two saved JSON manifests.';
  static override usage = [
    `preview-request [json|manifest] ${usageFlags('preview-request')}`,
    'preview-request base-prompt',
    'preview-request diff <A.json> <B.json> [--json]',
  ];
  static override examples = [
    '<%= config.bin %> preview-request json --prompt "fix the failing test"',
    '<%= config.bin %> preview-request --blocking --prompt hello',
    '<%= config.bin %> preview-request json -r local -m qwen3-coder --prompt hello',
    '<%= config.bin %> preview-request -n --prompt "what would a fresh session send?"',
    '<%= config.bin %> preview-request diff deepseek.json local.json',
  ];
  static override hiddenAliases = ['dryrun', 'preview_request'];
  // Bare mode words (`json`, `manifest`, `base-prompt`, `prompt`) are positional: flags/preview-output.ts reads them.
  static override strict = false;
  static override flags = oclifFlagsOf('preview-request');

  async run(): Promise<void> {
    // The terminal --prompt and the bare mode words are the grammar's; oclif parses the flags before them.
    this.parsed = true;
    // `diff` is only ever the first word: after --prompt it is prompt text like any other word.
    if (this.argv[0] === 'diff') {
      try {
        await this.diff(this.argv.slice(1));
      } catch (error) {
        await reportPreviewError(this, this.argv, error);
      }
      return;
    }
    await runPreview(
      this.argv,
      async () => {
        const { PREVIEW_REQUEST_USAGE } = await import('../flags/usage-lines.js');
        const { parseCommandLine } = await import('../flags/command-line.js');
        const line = await parseCommandLine(this, PreviewRequest, this.argv, PREVIEW_REQUEST_USAGE);
        return {
          order: line.order,
          prompt: line.prompt,
          choices: line.choices,
          blocking: line.flags['blocking'] === true,
        };
      },
      () => runtimeSourceOf(this.config),
      this,
    );
  }

  /** Compares two saved manifests; prints only what they already hold, plus cw's own words. */
  private async diff(argv: readonly string[]): Promise<void> {
    const { parseDiffArgs } = await import('../flags/diff-args.js');
    const args = parseDiffArgs(argv);
    const core = await import('@cw/core');
    let diff: ReturnType<typeof core.diffManifests>;
    try {
      // Read side by side, reported in order: when both fail, the message always names A.
      const [a, b] = (
        await Promise.allSettled([readManifest(args.files[0], 'A'), readManifest(args.files[1], 'B')])
      ).map((read) => {
        if (read.status === 'rejected') throw read.reason;
        return read.value;
      }) as [string, string];
      const reasons = core.builtinReasonTable();
      diff = core.diffManifests(core.parseManifestText(a, 'A', reasons), core.parseManifestText(b, 'B', reasons));
    } catch (error) {
      // Trouble is 2, as with diff(1): 1 is kept for "the manifests differ".
      throw Object.assign(error as Error, { exitCode: 2 });
    }
    if (args.json) process.stdout.write(`${JSON.stringify(diff, null, 2)}\n`);
    else {
      const { renderManifestDiff } = await import('../render/render-manifest-diff.js');
      process.stdout.write(renderManifestDiff(diff, { color: useColor() }));
    }
    // Like diff(1): 0 when the manifests are the same, 1 when they differ, 2 for trouble.
    if (!diff.identical) this.exit(1);
  }
}

// A manifest is a few kilobytes; anything this large is not one, and is not read into memory.
const MAX_MANIFEST_BYTES = 1024 * 1024;

async function readManifest(file: string, side: 'A' | 'B'): Promise<string> {
  const { readFile, stat } = await import('node:fs/promises');
  const { ManifestInputError } = await import('@cw/core');
  try {
    const info = await stat(file);
    if (info.isFile() && info.size > MAX_MANIFEST_BYTES)
      throw new ManifestInputError(`manifest ${side} is larger than 1 MiB, so it is not a cw manifest`);
    return await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof ManifestInputError) throw error;
    // The path itself is not echoed: the side names it, and the code says what went wrong.
    const code = (error as NodeJS.ErrnoException).code ?? 'read error';
    throw new ManifestInputError(
      `cannot read manifest ${side} (${code}); pass the path of a file saved with cw preview-request json`,
    );
  }
}
