import type { Edit, Node } from 'jsonc-parser';
import { type ConfigPathSegment, loadJsonc } from './config-text.js';

// jsonc-parser's own `modify` either writes everything on one line or reformats every line its edit
// touches (a neighbouring `{ "deny": ["shell"] }` would be spread over five lines). These edits are
// placed by hand instead: only the value set, the entry inserted or the entry removed changes, in
// the indentation and line ends the file already uses; comments elsewhere stay where they are.

/** Sets (or, with `undefined`, removes) the value at `path` in JSONC text that parses. */
export async function editConfigText(
  text: string,
  path: readonly ConfigPathSegment[],
  value: unknown,
): Promise<string> {
  const { applyEdits, parseTree } = await loadJsonc();
  const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (tree === undefined) return value === undefined ? text : `${render(nest(path, value), '', style(text))}\n`;
  const edits = value === undefined ? removal(text, tree, path) : setting(text, tree, path, value);
  return applyEdits(text, edits);
}

interface TextStyle {
  readonly unit: string;
  readonly eol: string;
}

function style(text: string): TextStyle {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  return { unit: indent ?? '  ', eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/** The child of a container for one segment: an object's property node or an array's element. */
function childOf(container: Node, segment: ConfigPathSegment): Node | undefined {
  if (container.type === 'object' && typeof segment === 'string') {
    return container.children?.findLast((property) => property.children?.[0]?.value === segment);
  }
  if (container.type === 'array' && typeof segment === 'number') return container.children?.[segment];
  return undefined;
}

function valueNodeOf(child: Node): Node | undefined {
  return child.type === 'property' ? child.children?.[1] : child;
}

function setting(text: string, tree: Node, path: readonly ConfigPathSegment[], value: unknown): Edit[] {
  const textStyle = style(text);
  let container = tree;
  for (const [index, segment] of path.entries()) {
    const child = childOf(container, segment);
    const node = child === undefined ? undefined : valueNodeOf(child);
    const rest = path.slice(index + 1);
    if (child === undefined || node === undefined)
      return insertion(text, container, segment, nest(rest, value), textStyle);
    if (rest.length === 0 || (node.type !== 'object' && node.type !== 'array')) {
      // The value here is replaced whole (a scalar standing where an object is now wanted, too).
      const content = render(nest(rest, value), lineIndent(text, child.offset), textStyle);
      return [{ offset: node.offset, length: node.length, content }];
    }
    container = node;
  }
  return [{ offset: tree.offset, length: tree.length, content: render(value, '', textStyle) }];
}

function insertion(
  text: string,
  container: Node,
  segment: ConfigPathSegment,
  value: unknown,
  textStyle: TextStyle,
): Edit[] {
  if (container.type !== 'object' && container.type !== 'array') {
    return [
      {
        offset: container.offset,
        length: container.length,
        content: render(nest([segment], value), lineIndent(text, container.offset), textStyle),
      },
    ];
  }
  const entry = (indent: string): string =>
    container.type === 'object'
      ? `${JSON.stringify(String(segment))}: ${render(value, indent, textStyle)}`
      : render(value, indent, textStyle);
  const children = container.children ?? [];
  const last = children[children.length - 1];
  if (last === undefined) {
    // An empty `{}` or `[]`: the entry goes on its own line, one step in.
    const outer = lineIndent(text, container.offset);
    const inner = `${outer}${textStyle.unit}`;
    return [
      {
        offset: container.offset + 1,
        length: container.length - 2,
        content: `${textStyle.eol}${inner}${entry(inner)}${textStyle.eol}${outer}`,
      },
    ];
  }
  const indent = lineIndent(text, last.offset);
  const end = last.offset + last.length;
  if (!text.slice(container.offset, last.offset).includes('\n')) {
    // A container written on one line stays on one line.
    const compact = JSON.stringify(value);
    const item = container.type === 'object' ? `${JSON.stringify(String(segment))}: ${compact}` : compact;
    return [{ offset: end, length: 0, content: `, ${item}` }];
  }
  return [{ offset: end, length: 0, content: `,${textStyle.eol}${indent}${entry(indent)}` }];
}

function removal(text: string, tree: Node, path: readonly ConfigPathSegment[]): Edit[] {
  let container = tree;
  for (const [index, segment] of path.entries()) {
    const child = childOf(container, segment);
    if (child === undefined) return [];
    if (index === path.length - 1) return removeChild(text, container, child);
    const node = valueNodeOf(child);
    if (node === undefined) return [];
    container = node;
  }
  return [];
}

function removeChild(text: string, container: Node, child: Node): Edit[] {
  let start = child.offset;
  let end = child.offset + child.length;
  end = skipBlanks(text, end);
  const hasComma = text[end] === ',';
  if (hasComma) end = skipBlanks(text, end + 1);
  // A line comment after the entry belongs to it.
  if (text.startsWith('//', end)) end = text.indexOf('\n', end) === -1 ? text.length : text.indexOf('\n', end);
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const alone = text.slice(lineStart, start).trim() === '';
  if (alone && (text[end] === '\n' || text.startsWith('\r\n', end))) {
    start = lineStart;
    end += text[end] === '\n' ? 1 : 2;
  } else if (!hasComma) {
    end = child.offset + child.length;
  }
  const edits: Edit[] = [{ offset: start, length: end - start, content: '' }];
  const siblings = container.children ?? [];
  const previous = siblings[siblings.indexOf(child) - 1];
  if (!hasComma && previous !== undefined) {
    // The entry was last: the comma before it would now trail.
    const comma = text.indexOf(',', previous.offset + previous.length);
    if (comma !== -1 && comma < child.offset) edits.push({ offset: comma, length: 1, content: '' });
  }
  return edits;
}

function skipBlanks(text: string, from: number): number {
  let index = from;
  while (text[index] === ' ' || text[index] === '\t') index += 1;
  return index;
}

function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
}

/** `value` wrapped in objects for the segments of `path` that do not exist yet. */
function nest(path: readonly ConfigPathSegment[], value: unknown): unknown {
  return path.reduceRight<unknown>(
    (inner, segment) => (typeof segment === 'number' ? [inner] : { [segment]: inner }),
    value,
  );
}

function render(value: unknown, indent: string, textStyle: TextStyle): string {
  return JSON.stringify(value, null, textStyle.unit).replaceAll('\n', `${textStyle.eol}${indent}`);
}
