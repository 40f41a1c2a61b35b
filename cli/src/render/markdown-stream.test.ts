import { terminalSafeMultiline } from '@cw/core';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { visible } from './ansi-text.js';
import { loadMarkdown, type MarkdownRenderer } from './load-markdown.js';

let markdown: MarkdownRenderer;
beforeAll(async () => {
  markdown = await loadMarkdown(terminalSafeMultiline);
});

/** What a stream prints when the reply arrives in `pieces`. */
function streamed(pieces: readonly string[], width = 60): string {
  let out = '';
  const stream = markdown.stream((text) => (out += text), width);
  for (const piece of pieces) stream.push(piece);
  stream.end();
  return out;
}

/** The whole reply rendered at once. */
function whole(text: string, width = 60): string {
  return markdown.render(text, width);
}

// Every SGR code the renderer may write; anything else starting with ESC would be the model's.
const OWN_ESCAPE = /\u001b\[[0-9;]*m/g;

describe('rendered Markdown', () => {
  it('shows headings bold without their marks', () => {
    const out = whole('# Title\n\n## Part two\n');
    expect(out).toBe('\u001b[1;4mTitle\u001b[0m\n\n\u001b[1mPart two\u001b[0m\n');
  });

  it('shows emphasis as styles, never as asterisks, and code spans in colour', () => {
    const out = whole('Some **bold**, *italic*, ~~gone~~ and `npm test`.');
    expect(visible(out)).toBe('Some bold, italic, gone and npm test.\n');
    expect(out).toContain('\u001b[1mbold\u001b[0m');
    expect(out).toContain('\u001b[3mitalic\u001b[0m');
    expect(out).toContain('\u001b[9mgone\u001b[0m');
    expect(out).toContain('\u001b[36mnpm test\u001b[0m');
  });

  it('keeps the outer style on after a nested span ends', () => {
    expect(whole('**bold *both* bold**')).toBe('\u001b[1mbold \u001b[1;3mboth\u001b[0m\u001b[1m bold\u001b[0m\n');
  });

  it('shows lists with bullets, numbers, nesting and task boxes', () => {
    const out = visible(whole('- one\n- two\n  - inner\n\n3. three\n4. four\n\n- [x] done\n- [ ] todo\n'));
    expect(out).toBe('• one\n• two\n  • inner\n\n3. three\n4. four\n\n• ☑ done\n• ☐ todo\n');
  });

  it('shows a table with aligned columns and a bold header', () => {
    const out = whole('| name | size |\n|---|--:|\n| alpha | 1 |\n| b | 22 |\n');
    expect(visible(out)).toBe('name  │ size\n──────┼─────\nalpha │    1\nb     │   22\n');
    expect(out).toContain('\u001b[1mname\u001b[0m');
  });

  it('shows a link with its address beside it, and an autolink once', () => {
    expect(visible(whole('See [the docs](https://example.com/docs) or <https://example.com>.', 100))).toBe(
      'See the docs (https://example.com/docs) or https://example.com.\n',
    );
  });

  it('shows a quote behind a bar and a rule as a line', () => {
    expect(visible(whole('> quoted **words**\n\n---\n'))).toBe(`│ quoted words\n\n${'─'.repeat(40)}\n`);
  });

  it('highlights a fenced block in its language, without the fence marks', () => {
    const out = whole('```js\nconst answer = "yes"; // why\n```\n');
    expect(out).toBe('  \u001b[35mconst\u001b[0m answer = \u001b[32m"yes"\u001b[0m; \u001b[90m// why\u001b[0m\n');
  });

  it('shows a fence in a language it does not know as plain code', () => {
    expect(whole('```nosuchlanguage\na <b> & c\n```\n')).toBe('  a <b> & c\n');
  });

  it('wraps paragraphs at the width and cuts a word wider than it', () => {
    const out = whole(`one two three four five six seven eight nine ten ${'x'.repeat(45)}`, 20);
    expect(out).toBe(
      `one two three four\nfive six seven eight\nnine ten\n${'x'.repeat(20)}\n${'x'.repeat(20)}\nxxxxx\n`,
    );
  });

  it('ends a style at the end of each wrapped line and starts it again on the next', () => {
    const out = whole('**one two three four five six**', 20);
    expect(out).toBe('\u001b[1mone two three four\u001b[0m\n\u001b[1mfive six\u001b[0m\n');
  });
});

describe('the model’s own escape sequences', () => {
  it('never reach the terminal through character references the lexer decodes', () => {
    const out = whole(
      '# T &#27;[2J\n\nRed &#27;[31mtext&#x9b;1m [link](https://x.example/&#27;[5m) `&#27;[7m` &#x202e;rtl\n\n| &#27;[31m |\n|---|\n| c |\n',
      100,
    );
    expect(out).not.toMatch(/\u001b\[(?:2J|31m|5m|7m)/);
    expect(out.replace(OWN_ESCAPE, '')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  });

  it('never reach the terminal, whole or cut anywhere', () => {
    const hostile =
      'Hi \u001b[31mred\u001b[0m **b** \u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007 \u009b2J\r\n```sh\necho \u001b[2Jx\n```\n';
    const reference = whole(hostile);
    expect(reference.replace(OWN_ESCAPE, '')).not.toMatch(/[\u001b\u009b\u009d\u0007]/);
    expect(visible(reference)).toContain('Hi red b click');
    for (let at = 0; at <= hostile.length; at++)
      expect(streamed([hostile.slice(0, at), hostile.slice(at)]), `cut at ${at}`).toBe(reference);
  });
});

// Blocks a reply is made of, so the generated replies have every construct next to every other.
const BLOCKS = [
  '# Heading one',
  '## Heading *two*',
  'A paragraph with **bold**, *em*, `code` and [a link](https://example.com/a).',
  'A paragraph\nover two lines.',
  '- one\n- two\n  - inner',
  '1. first\n2. second',
  '- [x] done\n- [ ] todo',
  '| a | b |\n|---|:-:|\n| 1 | 2 |',
  '```ts\nconst x: number = 1;\n\nexport { x };\n```',
  '```\nplain\n```',
  '> a quote\n> on two lines',
  '---',
  'Title\n=====',
  '    indented code',
  'Trailing words',
  '> - a quoted list\n> - of two',
  'A paragraph before a table\n| x | y |\n|---|---|\n| 1 | 2 |',
  '* a star list\n\n* that is loose',
  '1) a paren list\n2) second',
  '#',
  '<div>\nhtml block\n</div>',
  'Line with a hard break  \nand the next',
];

const reply = fc
  .tuple(
    fc.array(fc.constantFrom(...BLOCKS), { minLength: 1, maxLength: 6 }),
    fc.array(fc.constantFrom('\n\n', '\n\n\n', '\n'), { minLength: 6, maxLength: 6 }),
  )
  .map(([blocks, gaps]) => blocks.map((block, index) => `${block}${gaps[index]}`).join(''));

/** `text` cut at the given positions (any order, repeats allowed). */
function cut(text: string, positions: readonly number[]): string[] {
  const at = [...new Set(positions.map((position) => position % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const position of at) {
    pieces.push(text.slice(from, position));
    from = position;
  }
  pieces.push(text.slice(from));
  return pieces;
}

describe('a streamed reply', () => {
  it('prints the same as the whole reply, cut at every single position', () => {
    const text = `${BLOCKS.join('\n\n')}\n`;
    const reference = whole(text);
    expect(visible(reference)).not.toMatch(/\*\*|```|^#/m);
    for (let at = 0; at <= text.length; at++)
      expect(streamed([text.slice(0, at), text.slice(at)]), `cut at ${at}`).toBe(reference);
  });

  it('prints the same as the whole reply, one character at a time', () => {
    const text = `${BLOCKS.join('\n')}\n\n${BLOCKS.join('\n\n\n')}`;
    expect(streamed([...text])).toBe(whole(text));
  });

  it('prints the same as the whole reply, however it is cut (property)', () => {
    fc.assert(
      fc.property(reply, fc.array(fc.nat(), { maxLength: 30 }), (text, positions) => {
        expect(streamed(cut(text, positions))).toBe(whole(text));
      }),
      { numRuns: 500 },
    );
  });

  it('prints the same as the whole text for any run of Markdown marks, however it is cut (property)', () => {
    const mark = fc.constantFrom(
      ...['-', ' ', '\n', '\n\n', '1.', '2)', '#', '>', '|', '```', '`', '*', 'a', 'b c', '=', '---', '    '],
      ...['[x]', '<div>', '~~~', ':-:', '\t', '+'],
    );
    fc.assert(
      fc.property(fc.array(mark, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 10 }), (marks, positions) => {
        const text = marks.join('');
        expect(streamed(cut(text, positions))).toBe(whole(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('prints a block once a whole line of the next has arrived, and holds the open one until the end', () => {
    let out = '';
    const stream = markdown.stream((text) => (out += text), 60);
    stream.push('First **para');
    expect(out).toBe('');
    // "Second" could still become "Second\n===" or a list item; it is not read until its line ends.
    stream.push('graph**.\n\nSecond');
    expect(out).toBe('');
    stream.push(' one.\nAnd');
    expect(out).toBe('First \u001b[1mparagraph\u001b[0m.\n');
    stream.push(' more.');
    stream.end();
    expect(out).toBe('First \u001b[1mparagraph\u001b[0m.\n\nSecond one. And more.\n');
  });

  it('resolves a reference link against a definition in a block already printed', () => {
    const text = '[docs]: https://example.com/docs\n\nFirst paragraph.\n\nSee [the docs][docs].\n';
    const out = streamed([...text]);
    expect(visible(out)).toBe('First paragraph.\n\nSee the docs (https://example.com/docs).\n');
    expect(out).toBe(whole(text));
  });

  it('holds a list while a line after it could still continue it', () => {
    let out = '';
    const stream = markdown.stream((text) => (out += text), 60);
    stream.push('1. first\n2. second\n\n1');
    expect(out).toBe('');
    stream.push('. third\n');
    stream.end();
    expect(visible(out)).toBe('1. first\n\n2. second\n\n3. third\n');
  });
});
