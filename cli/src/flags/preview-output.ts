import { UsageError } from './usage-error.js';

// The preview's bare mode words (`json`, `manifest`, `base-prompt`, and the no-op `prompt`) and
// their flag spellings: no flag parser reads positional words in order, so this does. Any other bare
// word is an unknown argument, not echoed: it is most often prompt text typed without `--prompt`.

const UNKNOWN_ARGUMENT =
  'Unknown argument. Flags come before `--prompt`, which takes the rest of the arguments as prompt text.';
const BASE_PROMPT_WITH_JSON = '`base-prompt` cannot be combined with JSON.';
const BASE_PROMPT_WITH_PROMPT = '`base-prompt` cannot be combined with `--prompt`.';

/** The bare words the preview reads before `--prompt`, besides its flags. */
export const PREVIEW_MODE_WORDS: ReadonlySet<string> = new Set(['json', 'manifest', 'prompt', 'base-prompt']);

/** What the preview prints. */
export type PreviewOutput = 'json' | 'table' | 'base-prompt';

/**
 * The preview's output from its mode words and flags in the order given: the last of json/manifest
 * wins, and base-prompt excludes JSON and a prompt.
 */
export function previewOutputOf(
  order: readonly { readonly flag?: string; readonly word?: string }[],
  promptGiven: boolean,
  usage: string,
): PreviewOutput {
  let json = false;
  let basePrompt = false;
  for (const token of order) {
    const effect = token.word !== undefined ? wordEffect(token.word) : token.flag;
    if (effect === undefined) throw new UsageError(UNKNOWN_ARGUMENT, usage);
    if (effect === 'json') {
      if (basePrompt) throw new UsageError(BASE_PROMPT_WITH_JSON, usage);
      json = true;
    } else if (effect === 'manifest') json = false;
    else if (effect === 'base-prompt') {
      if (json) throw new UsageError(BASE_PROMPT_WITH_JSON, usage);
      basePrompt = true;
    }
  }
  if (basePrompt && promptGiven) throw new UsageError(BASE_PROMPT_WITH_PROMPT, usage);
  return basePrompt ? 'base-prompt' : json ? 'json' : 'table';
}

function wordEffect(word: string): string | undefined {
  if (word === 'json' || word === 'manifest' || word === 'base-prompt') return word;
  return word === 'prompt' ? 'noop' : undefined;
}
