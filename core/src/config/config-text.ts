import type { Node, ParseError } from 'jsonc-parser';

let jsonc: typeof import('jsonc-parser') | undefined;

/** jsonc-parser, loaded on first use: a config.json that is plain valid JSON never needs it. */
export async function loadJsonc(): Promise<typeof import('jsonc-parser')> {
  jsonc ??= await import('jsonc-parser');
  return jsonc;
}

/** Where in config.json a problem sits: 1-based line and column (UTF-16 code units, as editors count). */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** A syntax problem in config.json: where it is and what the parser expected there. */
export interface SyntaxProblem {
  readonly position: TextPosition;
  readonly message: string;
}

/** config.json as read: its syntax tree (for positions), its value, and every syntax problem. */
export interface ConfigText {
  readonly text: string;
  readonly tree: Node | undefined;
  /** The value as JSON.parse would give it (own `__proto__` keys kept as data); undefined when the text is not a value. */
  readonly value: unknown;
  readonly syntaxProblems: readonly SyntaxProblem[];
}

// JSONC as editors write it: comments and trailing commas are fine; an empty file is an empty config.
const PARSE_OPTIONS = { disallowComments: false, allowTrailingComma: true, allowEmptyContent: true } as const;

const SYNTAX_WORDS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'a field name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected',
  CommaExpected: 'a comma is expected',
  CloseBraceExpected: 'a closing } is expected',
  CloseBracketExpected: 'a closing ] is expected',
  EndOfFileExpected: 'nothing may follow the top-level value',
  InvalidCommentToken: 'malformed comment',
  UnexpectedEndOfComment: 'a comment is not closed',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'malformed \\u escape',
  InvalidEscapeCharacter: 'malformed escape in a string',
  InvalidCharacter: 'a control character inside a string',
};

/** Parses config.json text as JSONC, collecting every syntax problem rather than stopping at the first. */
export async function parseConfigText(text: string): Promise<ConfigText> {
  const { parseTree, printParseErrorCode } = await loadJsonc();
  const errors: ParseError[] = [];
  // A BOM is what some editors save; it is not part of the JSON.
  const body = text.startsWith('\ufeff') ? ` ${text.slice(1)}` : text;
  const tree = parseTree(body, errors, PARSE_OPTIONS);
  const syntaxProblems = errors.map((error) => ({
    position: positionAt(body, error.offset),
    message: SYNTAX_WORDS[printParseErrorCode(error.error)] ?? 'malformed JSON',
  }));
  return { text: body, tree, value: tree === undefined ? {} : plainValue(tree), syntaxProblems };
}

/** The line and column of a character offset. */
export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let index = 0; index < end; index += 1) {
    if (text.charCodeAt(index) === 10) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** One step down a config value: an object's field name or an array index. */
export type ConfigPathSegment = string | number;

/**
 * The node at `path`, or the deepest node on the way there that exists (a missing field is reported
 * where its object is). For a field, the node of its value; `key` asks for the field's name instead.
 */
export function nodeAt(tree: Node | undefined, path: readonly ConfigPathSegment[], key = false): Node | undefined {
  let node = tree;
  for (const [index, segment] of path.entries()) {
    if (node === undefined) return undefined;
    const last = index === path.length - 1;
    if (node.type === 'object' && typeof segment === 'string') {
      // The last of duplicate fields is the one that counts, as in JSON.parse.
      const property = node.children?.findLast((child) => child.children?.[0]?.value === segment);
      if (property === undefined) return node;
      node = last && key ? property.children?.[0] : property.children?.[1];
    } else if (node.type === 'array' && typeof segment === 'number') {
      const element = node.children?.[segment];
      if (element === undefined) return node;
      node = element;
    } else {
      return node;
    }
  }
  return node;
}

/** Fields written twice in one object: JSON.parse keeps the last silently, so each is a problem. */
export function duplicateFields(tree: Node | undefined): { path: ConfigPathSegment[]; node: Node }[] {
  const found: { path: ConfigPathSegment[]; node: Node }[] = [];
  const walk = (node: Node, path: ConfigPathSegment[]): void => {
    if (node.type === 'object') {
      const seen = new Set<string>();
      for (const property of node.children ?? []) {
        const [name, value] = property.children ?? [];
        if (name === undefined || typeof name.value !== 'string') continue;
        if (seen.has(name.value)) found.push({ path: [...path, name.value], node: name });
        seen.add(name.value);
        if (value !== undefined) walk(value, [...path, name.value]);
      }
    } else if (node.type === 'array') {
      for (const [index, element] of (node.children ?? []).entries()) walk(element, [...path, index]);
    }
  };
  if (tree !== undefined) walk(tree, []);
  return found;
}

// Built by hand rather than with the library's getNodeValue, so that a `__proto__` field becomes an
// own property (as JSON.parse makes it) and can be checked and refused, never a prototype.
function plainValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [name, value] = property.children ?? [];
        if (name === undefined || typeof name.value !== 'string') continue;
        Object.defineProperty(object, name.value, {
          value: value === undefined ? null : plainValue(value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return object;
    }
    case 'array':
      return (node.children ?? []).map(plainValue);
    default:
      return node.value;
  }
}
