import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchTool } from './search-tool.js';
import { useTempWorkspace } from './workspace-fixture.js';

const workspace = useTempWorkspace();

describe('search', () => {
  it('returns path:line: text for each match, files in sorted order', async () => {
    const ws = workspace();
    await ws.write('src/b.ts', 'const x = 1;\nexport function foo() {}\r\n');
    await ws.write('src/a.ts', 'foo();\nbar();\nfoo(2);\n');
    expect(await ws.run(searchTool, { pattern: 'foo\\(' })).toEqual({
      status: 'ok',
      content: 'src/a.ts:1: foo();\nsrc/a.ts:3: foo(2);\nsrc/b.ts:2: export function foo() {}',
    });
  });

  it('skips .git, node_modules, binary files and symbolic links', async () => {
    const ws = workspace();
    await ws.write('a.txt', 'needle\n');
    await ws.write('.git/config', 'needle\n');
    await ws.write('node_modules/p/index.js', 'needle\n');
    await ws.write('blob.bin', Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2])]));
    await ws.write('../outside/x.txt', 'needle\n');
    await symlink(ws.outside, path.join(ws.root, 'escape'));
    expect((await ws.run(searchTool, { pattern: 'needle' })).content).toBe('a.txt:1: needle');
  });

  it('searches under a path or in one file', async () => {
    const ws = workspace();
    await ws.write('a/x.txt', 'hit\n');
    await ws.write('b/y.txt', 'hit\n');
    expect((await ws.run(searchTool, { pattern: 'hit', path: 'b' })).content).toBe('b/y.txt:1: hit');
    expect((await ws.run(searchTool, { pattern: 'hit', path: 'a/x.txt' })).content).toBe('a/x.txt:1: hit');
  });

  it('reports no matches as a plain result', async () => {
    const ws = workspace();
    await ws.write('a.txt', 'nothing here\n');
    expect(await ws.run(searchTool, { pattern: 'absent' })).toEqual({
      status: 'ok',
      content: 'no matches for /absent/ in .',
    });
  });

  it('refuses an invalid regular expression clearly', async () => {
    const ws = workspace();
    const outcome = await ws.run(searchTool, { pattern: 'foo(' });
    expect(outcome.status).toBe('error');
    expect(outcome.content).toMatch(/^invalid regular expression \(JavaScript syntax\): .*Unterminated group/);
  });

  it('stops at max_results with a note', async () => {
    const ws = workspace();
    await ws.write('a.txt', 'x\n'.repeat(10));
    expect(await ws.run(searchTool, { pattern: 'x', max_results: 3 })).toEqual({
      status: 'ok',
      content:
        'a.txt:1: x\na.txt:2: x\na.txt:3: x\n[stopped at max_results (3); narrow the pattern or path to see the rest]',
    });
    const all = await ws.run(searchTool, { pattern: 'x', max_results: 10 });
    expect(all.content.split('\n')).toHaveLength(10);
  });

  it('defaults max_results to 200 and keeps to the output limits', async () => {
    const ws = workspace();
    await ws.write('a.txt', 'x\n'.repeat(300));
    const capped = await ws.run(searchTool, { pattern: 'x' }, { limits: { outputBytes: 1e6, outputLines: 1000 } });
    expect(capped.content.split('\n')).toHaveLength(201);
    expect(capped.content).toContain('[stopped at max_results (200)');
    const limited = await ws.run(searchTool, { pattern: 'x' }, { limits: { outputLines: 4 } });
    expect(limited.content).toBe(
      'a.txt:1: x\na.txt:2: x\na.txt:3: x\na.txt:4: x\n' +
        '[truncated: output limit reached after 4 matches; narrow the pattern or path]',
    );
  });

  it('refuses paths outside the workspace and a binary file asked for by name', async () => {
    const ws = workspace();
    await ws.write('blob.bin', Buffer.from([0, 1, 2]));
    expect((await ws.run(searchTool, { pattern: 'x', path: '../outside' })).content).toContain(
      'path is outside the workspace',
    );
    expect((await ws.run(searchTool, { pattern: 'x', path: 'blob.bin' })).status).toBe('error');
    expect((await ws.run(searchTool, { pattern: 'x', max_results: 0 })).status).toBe('error');
    expect((await ws.run(searchTool, { pattern: 5 })).status).toBe('error');
  });

  it('is read-only and summarizes as its pattern', () => {
    expect(searchTool.readOnly).toBe(true);
    expect(searchTool.summarize?.({ pattern: 'foo\\(' })).toBe('foo\\(');
  });
});

describe('search: a catastrophic regular expression', () => {
  it('returns a time-limit error within its limit, and the loop is not stalled meanwhile', async () => {
    const ws = workspace();
    // (a+)+$ against a long run of a's that does not end the line backtracks exponentially.
    await ws.write('evil.txt', `${'a'.repeat(40)}!\n`);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const started = Date.now();
    const result = await ws.run(searchTool, { pattern: '^(a+)+$' }, { limits: { searchTimeoutMs: 300 } });
    clearInterval(ticker);
    expect(result.status).toBe('error');
    expect(result.content).toContain('ran longer than 300 ms');
    expect(Date.now() - started).toBeLessThan(3_000);
    // The event loop kept turning while the pattern ran: it ran off the main thread.
    expect(ticks).toBeGreaterThan(5);
  });
});

describe('search and deny_read', () => {
  it('skips denied files and folders, says so once, and refuses a denied path asked for directly', async () => {
    const ws = workspace();
    await ws.write('.env', 'TOKEN=sk-test-0needle\n');
    await ws.write('secrets/a.txt', 'needle in a secret\n');
    await ws.write('src/a.txt', 'needle\n');
    const files = await ws.denyRead(['.env', 'secrets']);
    expect(await ws.run(searchTool, { pattern: 'needle' }, { files })).toEqual({
      status: 'ok',
      content: 'src/a.txt:1: needle\n[skipped 2 path(s) the sandbox hides]',
    });
    expect(await ws.run(searchTool, { pattern: 'needle', path: 'secrets' }, { files })).toEqual({
      status: 'error',
      content: "refused: deny_read entry 2 is hidden from cw's tools and commands",
    });
  });
});
