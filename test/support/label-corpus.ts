import { readFileSync } from 'node:fs';

/** One corpus line with the category heading it sits under. */
export interface CorpusItem {
  readonly category: string;
  readonly text: string;
}

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/labels/${name}`, import.meta.url), 'utf8');

// The corpus format: `#` lines are comments, `# == name ==` starts a category, blank lines are skipped.
function parseCorpus(source: string, decode: (line: string) => string): CorpusItem[] {
  const items: CorpusItem[] = [];
  let category = '';
  for (const line of source.split('\n')) {
    const heading = /^# == ([^=]+) ==/.exec(line);
    if (heading) category = heading[1]?.trim() ?? '';
    if (line === '' || line.startsWith('#')) continue;
    items.push({ category, text: decode(line) });
  }
  return items;
}

const decodeEscapes = (line: string): string =>
  line.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** Hostile identifiers and error texts: none may ever be printed verbatim. */
export const HOSTILE: readonly CorpusItem[] = parseCorpus(fixture('hostile-labels.txt'), decodeEscapes);
/** Ordinary labels a redactor must leave alone. */
export const BENIGN: readonly CorpusItem[] = parseCorpus(fixture('benign-labels.txt'), (line) => line);
/** The Big List of Naughty Strings. */
export const BLNS: readonly string[] = JSON.parse(fixture('blns.json')) as string[];

// An independent, deliberately loose reading of common credential shapes (those core/src/redaction/secret-shapes.ts covers), kept
// separate from the implementation so that a gap in one is not silently shared by the other.
const SECRET_SHAPES: readonly RegExp[] = [
  /sk-[A-Za-z0-9_-]{8,}/gi,
  /[spr]k_(?:test|live|prod)_[A-Za-z0-9]{8,}/gi,
  /gh[pousr]_[A-Za-z0-9_]{16,}/gi,
  /github_pat_\w{16,}/gi,
  /xox[a-z]-[A-Za-z0-9-]{8,}/gi,
  /xapp-[A-Za-z0-9-]{8,}/gi,
  /(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}/g,
  /AIza[\w-]{16,}/g,
  /eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_-]+)*/g,
  /(?:hf|gsk|npm)_[A-Za-z0-9]{16,}/gi,
  /(?:xai|pplx)-[A-Za-z0-9]{16,}/gi,
  /glpat-[\w-]{16,}/gi,
  /-----BEGIN[A-Z ]*PRIVATE KEY-----/g,
  /[A-Za-z0-9+/=_-]{32,}/g,
];

/** The secret-shaped substrings of a text. */
export function secretShapedParts(text: string): string[] {
  return SECRET_SHAPES.flatMap((shape) => [...text.matchAll(shape)].map((match) => match[0]));
}

/** The first secret-shaped part of `input` (or any 12-character window of a prefixed key) found in `output`. */
export function leakedSecret(input: string, output: string): string | undefined {
  for (const part of secretShapedParts(input)) {
    if (output.includes(part)) return part;
    if (/^(?:sk|gh|xox|AKIA|ASIA|AIza|eyJ|glpat)/i.test(part)) {
      for (let start = 0; start + 12 <= part.length; start += 1) {
        if (output.includes(part.slice(start, start + 12))) return part.slice(start, start + 12);
      }
    }
  }
  return undefined;
}
