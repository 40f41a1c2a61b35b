import type { Style } from './ansi-text.js';

// highlight.js marks a fence's code up as HTML spans named for what each piece is (hljs-keyword,
// hljs-string); this maps those names to terminal colours. The code was made terminal-safe before
// it was highlighted, and highlight.js escapes it as HTML, so what comes back holds no escape of the
// model's: only spans, entities and text.

const COLOURS: Readonly<Record<string, Style>> = {
  keyword: '35',
  'selector-tag': '35',
  doctag: '35',
  built_in: '36',
  type: '36',
  class: '36',
  'title.class': '36',
  'title.function': '34',
  title: '34',
  function: '34',
  string: '32',
  regexp: '31',
  'template-string': '32',
  symbol: '33',
  number: '33',
  literal: '33',
  attr: '33',
  attribute: '33',
  variable: '31',
  'template-variable': '31',
  'selector-id': '33',
  'selector-class': '33',
  comment: '90',
  quote: '90',
  meta: '90',
  addition: '32',
  deletion: '31',
  section: '1',
  name: '34',
  tag: '90',
};

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };

/** The colour of an hljs class list (`hljs-title function_`): its most specific known name, or none. */
function colourOf(classes: string): Style | undefined {
  const names = classes
    .split(/\s+/)
    .map((name) => name.replace(/^hljs-/, '').replace(/_+$/, ''))
    .filter((name) => name !== '');
  const dotted = names.join('.');
  return COLOURS[dotted] ?? names.map((name) => COLOURS[name]).find((colour) => colour !== undefined);
}

/**
 * highlight.js HTML as terminal text: each span's text in its colour, nested spans in their own and
 * the enclosing one again after them, entities decoded. One line of code stays one line.
 */
export function htmlToAnsi(html: string): string {
  const stack: (Style | undefined)[] = [];
  const current = (): Style | undefined => stack.findLast((colour) => colour !== undefined);
  let out = '';
  const pattern = /<span class="([^"]*)">|<\/span>|&(#?\w+);|[^<&]+|[<&]/g;
  for (const match of html.matchAll(pattern)) {
    const [piece, classes, entity] = match;
    if (classes !== undefined) {
      const colour = colourOf(classes);
      stack.push(colour);
      if (colour !== undefined) out += `\u001b[${colour}m`;
    } else if (piece === '</span>') {
      const closed = stack.pop();
      if (closed !== undefined) {
        const outer = current();
        out += outer === undefined ? '\u001b[0m' : `\u001b[0m\u001b[${outer}m`;
      }
    } else if (entity !== undefined) out += ENTITIES[entity] ?? piece;
    else out += piece;
  }
  return out;
}
