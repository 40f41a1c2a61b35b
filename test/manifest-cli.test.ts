// The manifest through the CLI, as a user runs it: JSON that validates against the published schema,
// a human table that fits 80 columns (colour only on a TTY, never with NO_COLOR), base-prompt bytes,
// the grammar's edge cases end to end, `diff`, and `cw send` refusing a turn that does not fit.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nock from 'nock';
import { BUNDLED_BASE_PROMPT } from '@cw/core';
import { builtinReasonTable } from '@cw/core';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEY, useCwHomes, writeSession, sessionFile } from './support/cw-fixture.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { HISTORY_WITH_TOOL_RESULTS } from './support/manifest-preview.js';
import { runCw } from './support/run-cw.js';

const home = useCwHomes();
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[/;

afterEach(() => {
  delete process.env['NO_COLOR'];
});

function expectFits80(text: string): void {
  const wide = text.split('\n').filter((line) => [...line].length > 80);
  expect(wide).toEqual([]);
}

/** Runs cw with stdout pretending to be a terminal, for the colour decision. */
async function runOnTty(argv: string[]): Promise<string> {
  const descriptor = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true });
  try {
    return (await runCw(argv)).stdout;
  } finally {
    if (descriptor) Object.defineProperty(process.stdout, 'isTTY', descriptor);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
  }
}

const CUSTOM = (dialect: string) => ({
  route: 'local',
  routes: { local: { provider: 'custom', dialect, base_url: 'http://127.0.0.1:9/v1', model: 'local-model' } },
});

describe('JSON manifests from the CLI validate against docs/manifest.schema.json', () => {
  const cases: [string, unknown, string[]][] = [
    ['default route with a prompt', undefined, ['json', '--prompt', 'hello']],
    ['default route, blocking', undefined, ['json', '--blocking', '--prompt', 'hello']],
    ['no prompt', undefined, ['json']],
    ['unknown route', { route: 'nope' }, ['json', '--prompt', 'x']],
    ['MCP configured', { mcpServers: { files: { command: 'files-mcp' } } }, ['json', '--prompt', 'x']],
    ['custom anthropic route', CUSTOM('anthropic-messages'), ['json', '--prompt', 'x']],
    [
      'custom responses route with gates',
      { ...CUSTOM('openai-responses'), tools: { deny: ['shell'] } },
      ['json', '--prompt', 'x'],
    ],
  ];
  for (const [name, config, argv] of cases) {
    it(name, async () => {
      await home(config);
      const { stdout, exitCode, stderr } = await runCw(['preview-request', ...argv]);
      expect(stderr).toBe('');
      expect(exitCode).toBe(0);
      expectValidManifest(stdout);
      // Two-space indentation, one trailing newline.
      expect(stdout.startsWith('{\n  "schema_version": 1,\n')).toBe(true);
      expect(stdout.endsWith('}\n')).toBe(true);
    });
  }
});

describe('the human table', () => {
  it('is readable at 80 columns, with every section, and no colour off a terminal', async () => {
    const folder = await home();
    await writeSession(folder, 'default', HISTORY_WITH_TOOL_RESULTS);
    const { stdout, exitCode } = await runCw(['preview-request', '--prompt', 'fix the failing test']);
    expect(exitCode).toBe(0);
    expectFits80(stdout);
    expect(stdout).not.toMatch(ANSI);
    for (const heading of [
      'Session',
      'Route',
      'Tools (the exact catalog this request would send)',
      'Wire body',
      'Hashes (SHA-256)',
    ]) {
      expect(stdout).toContain(`${heading}\n`);
    }
    expect(stdout).toContain('not provider-counted');
    expect(stdout).toContain('system + tool schemas + messages + framing =');
    expect(stdout).toContain('(from reasoning_effort)');
    expect(stdout).toContain('window minus output');
    expect(stdout).not.toContain('fix the failing test');
    expect(stdout).not.toContain('README.md');
  });

  it('unavailable sections say why in words, and hint at --prompt', async () => {
    await home();
    const { stdout } = await runCw(['preview-request']);
    expectFits80(stdout);
    expect(stdout).toContain('no hypothetical prompt supplied');
    expect(stdout).toContain('no-hypothetical-prompt-supplied');
    expect(stdout).toContain('Pass --prompt <text>');
  });

  it('a planning failure shows the redacted detail and no --prompt hint', async () => {
    await home({ route: 'my-gateway' });
    const { stdout } = await runCw(['preview-request', '--prompt', 'x']);
    expectFits80(stdout);
    expect(stdout).toContain(builtinReasonTable().label('route-plan-failed'));
    expect(stdout).toContain('detail');
    expect(stdout).not.toContain('Pass --prompt');
  });

  it('colours only on a terminal, and never with NO_COLOR', async () => {
    await home();
    const coloured = await runOnTty(['preview-request', '--prompt', 'x']);
    expect(coloured).toMatch(ANSI);
    // Escape codes never widen a line beyond 80 visible columns.
    expectFits80(coloured.replace(/\u001b\[[0-9;]*m/g, ''));
    process.env['NO_COLOR'] = '1';
    expect(await runOnTty(['preview-request', '--prompt', 'x'])).not.toMatch(ANSI);
    // With colour stripped, the coloured table is the plain one.
    delete process.env['NO_COLOR'];
    const plain = (await runCw(['preview-request', '--prompt', 'x'])).stdout;
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain);
  });

  it('base-prompt prints exactly the effective base-prompt bytes and nothing else', async () => {
    await home({ mcpServers: { files: { command: 'files-mcp' } } });
    for (const flag of ['base-prompt', '--base-prompt']) {
      const { stdout, stderr, exitCode } = await runCw(['preview-request', flag]);
      expect(exitCode).toBe(0);
      expect(stderr).toBe('');
      expect(Buffer.from(stdout, 'utf8').equals(Buffer.from(BUNDLED_BASE_PROMPT, 'utf8'))).toBe(true);
    }
  });
});

describe('grammar edge cases, end to end', () => {
  it('G-18: a trailing json after --prompt is prompt text, so the output is the table', async () => {
    await home();
    const table = await runCw(['preview-request', '--prompt', 'fix', 'it', 'json']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout.startsWith('Request manifest')).toBe(true);
    const json = await runCw(['preview-request', 'json', '--prompt', 'fix it']);
    expectValidManifest(json.stdout);
  });

  it('the prompt keeps its bytes: whitespace differences change the body hash', async () => {
    await home();
    const hashes = new Set<string>();
    for (const prompt of ['keep  two  spaces', 'keep two spaces', 'keep two spaces ', '  keep two spaces']) {
      const { stdout } = await runCw(['preview-request', 'json', '--prompt', prompt]);
      const manifest = JSON.parse(stdout) as { body: { exact: { body_sha256: string } } };
      hashes.add(manifest.body.exact.body_sha256);
    }
    expect(hashes.size).toBe(4);
  });

  it('G-30: an unknown argument exits 2 and leaves the session untouched', async () => {
    const folder = await home();
    await writeSession(folder, 'default', [{ role: 'user', content: 'earlier' }]);
    const before = await readFile(await sessionFile(folder));
    const result = await runCw(['preview-request', 'nope']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('Unknown argument');
    expect(result.stdout).toBe('');
    expect((await readFile(await sessionFile(folder))).equals(before)).toBe(true);
  });

  it('G-31: json with one stored message reports it and stores nothing more', async () => {
    const folder = await home();
    await writeSession(folder, 'default', [{ role: 'user', content: 'earlier' }]);
    const before = await readFile(await sessionFile(folder));
    const { stdout } = await runCw(['preview-request', 'json']);
    expectValidManifest(stdout);
    expect((JSON.parse(stdout) as { session: { stored_message_count: number } }).session.stored_message_count).toBe(1);
    expect((await readFile(await sessionFile(folder))).equals(before)).toBe(true);
  });

  it('the tools config is validated like any other field', async () => {
    await home({ tools: { allow: 'read_file' } });
    const result = await runCw(['preview-request', 'json', '--prompt', 'x']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /^cw: config\.json:1:\d+: tools\.allow: wrong type; found "read_file"; accepted: an array\n$/,
    );
  });
});

describe('cw preview-request diff', () => {
  async function saved(folder: string, name: string, config: unknown, prompt = 'the same prompt'): Promise<string> {
    const file = join(folder, name);
    const previous = process.env['CW_HOME'];
    const configHome = await home(config);
    const { stdout } = await runCw(['preview-request', 'json', '--prompt', prompt]);
    expectValidManifest(stdout);
    await writeFile(file, stdout);
    process.env['CW_HOME'] = previous ?? configHome;
    return file;
  }

  it('groups what differs between two routes, in reading order, within 80 columns', async () => {
    const folder = await home();
    const a = await saved(folder, 'deepseek.json', undefined);
    const b = await saved(folder, 'local.json', { ...CUSTOM('openai-responses'), reasoning: 'high' });
    const { stdout, exitCode } = await runCw(['preview-request', 'diff', a, b]);
    // Like diff(1): the manifests differ, so 1.
    expect(exitCode).toBe(1);
    expectFits80(stdout);
    for (const title of [
      'Dialect and route shape',
      'Wire model (the id that goes on the wire)',
      'Tools',
      'Reasoning',
      'Whole request',
      'Billing',
    ]) {
      expect(stdout).toContain(`${title}\n`);
    }
    expect(stdout).toContain('route.dialect\n    A  chat-completions\n    B  openai-responses');
    expect(stdout).toContain('Different dialects send structurally different requests');
    expect(stdout).toContain('The outbound bytes differ.');
    expect(stdout).toContain('cost comparison fails closed');
    // Nothing that is not in the manifests: not even the file names.
    expect(stdout).not.toContain(folder);
    expect(stdout).not.toContain('deepseek.json');

    const json = await runCw(['preview-request', 'diff', '--json', a, b]);
    expect(json.exitCode).toBe(1);
    const diff = JSON.parse(json.stdout) as {
      diff_version: number;
      identical: boolean;
      groups: { id: string; differences: { path: string; a?: unknown; b?: unknown }[] }[];
    };
    expect(diff.diff_version).toBe(1);
    expect(diff.identical).toBe(false);
    expect(diff.groups.map((group) => group.id)).toEqual([
      'availability',
      'dialect',
      'wire-model',
      'tools',
      'fixed-overhead',
      'reasoning',
      'whole-body',
      'components',
      'billing',
      'other',
    ]);
    const dialect = diff.groups.find((group) => group.id === 'dialect');
    expect(dialect?.differences).toContainEqual({
      path: 'route.dialect',
      a: 'chat-completions',
      b: 'openai-responses',
    });
  });

  it('identical manifests say so; a section exact on one side only is reported under availability', async () => {
    const folder = await home();
    const a = await saved(folder, 'a.json', undefined);
    const same = await runCw(['preview-request', 'diff', a, a]);
    expect(same.exitCode).toBe(0);
    expect(same.stdout).toContain('The two manifests are identical.');
    expect(same.stdout).toContain('Same body hash');
    const b = await saved(folder, 'b.json', { mcpServers: { files: { command: 'files-mcp' } } });
    const json = JSON.parse((await runCw(['preview-request', 'diff', a, b, '--json'])).stdout) as {
      groups: { id: string; differences: { path: string; a?: unknown; b?: unknown }[] }[];
    };
    const availability = json.groups.find((group) => group.id === 'availability');
    expect(availability?.differences).toContainEqual({
      path: 'tools.unavailable.reason',
      b: 'mcp-state-not-snapshottable',
    });
    // The body hash is absent on B's side, not null.
    const whole = json.groups.find((group) => group.id === 'whole-body')?.differences[0];
    expect(whole?.path).toBe('body.body_sha256');
    expect(whole && 'b' in whole).toBe(false);
  });

  it('bad input: one line, exit 2 like diff(1) trouble (1 means the manifests differ)', async () => {
    const folder = await home();
    const good = await saved(folder, 'good.json', undefined);
    const notJson = join(folder, 'not.json');
    await writeFile(notJson, 'sk-live-abcdef0123456789 is not json');
    const oldVersion = join(folder, 'old.json');
    await writeFile(oldVersion, JSON.stringify({ ...JSON.parse(await readFile(good, 'utf8')), schema_version: 9 }));
    const wrongShape = join(folder, 'shape.json');
    await writeFile(
      wrongShape,
      JSON.stringify({ ...JSON.parse(await readFile(good, 'utf8')), route: { exact: { '/home/someone/secret': 1 } } }),
    );
    const cases: [string[], number, RegExp][] = [
      [[good, join(folder, 'missing.json')], 2, /^cw: cannot read manifest B \(ENOENT\)/],
      [[notJson, good], 2, /^cw: manifest A is not valid JSON/],
      [[good, oldVersion], 2, /^cw: manifest B has schema_version 9; this cw reads schema_version 1/],
      [[wrongShape, good], 2, /^cw: manifest A is not a valid cw manifest/],
      [[good], 2, /needs exactly two/],
      [[good, good, good], 2, /needs exactly two/],
      [[good, '--nope', good], 2, /Unknown flag/],
    ];
    for (const [files, code, message] of cases) {
      const result = await runCw(['preview-request', 'diff', ...files]);
      expect(result.exitCode, files.join(' ')).toBe(code);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
      for (const leaked of ['sk-live', '/home/someone', folder]) expect(result.stderr).not.toContain(leaked);
    }
  });

  it('diff is only the first word: after --prompt it is prompt text', async () => {
    await home();
    const { stdout, exitCode } = await runCw(['preview-request', 'json', '--prompt', 'diff', 'a.json', 'b.json']);
    expect(exitCode).toBe(0);
    expectValidManifest(stdout);
  });
});

describe('cw send refuses a turn that does not fit the input budget', () => {
  it('typed one-line error, exit 1, nothing sent, nothing written', async () => {
    const folder = await home({
      route: 'small',
      routes: {
        small: {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: 'http://127.0.0.1:18081/v1',
          model: 'm',
          api_key_env: 'CW_OVERFLOW_KEY',
          context_window: 4_096,
          max_output_tokens: 1_024,
        },
      },
      // Without compaction the overflow is refused as is (docs/compaction.md covers the other case).
      compaction: { enabled: false },
      // A posture that runs no command unasked, so the one line expected is the same with or without a sandbox.
      approval: 'read-only',
    });
    const history = Array.from({ length: 10 }, (_unused, index) => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: 'y'.repeat(1_500),
    }));
    await writeSession(folder, 'default', history);
    const before = await readFile(await sessionFile(folder));
    process.env['CW_OVERFLOW_KEY'] = FAKE_KEY;
    nock.disableNetConnect();
    const scope = nock('http://127.0.0.1:18081').post('/v1/chat/completions').reply(200, {});
    try {
      const preview = await runCw(['preview-request', 'json', '--prompt', 'one more']);
      expectValidManifest(preview.stdout);
      expect(preview.stdout).toContain('input-budget-exceeded');
      const result = await runCw(['send', '--prompt', 'one more']);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^cw: this turn needs about \d+ input tokens but the input budget of this route is 2048; .*nothing was sent\n$/,
      );
      expect(scope.isDone()).toBe(false);
      expect((await readFile(await sessionFile(folder))).equals(before)).toBe(true);
    } finally {
      nock.cleanAll();
      nock.enableNetConnect();
      delete process.env['CW_OVERFLOW_KEY'];
    }
  });
});
