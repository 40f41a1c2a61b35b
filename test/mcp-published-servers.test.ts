// MCP with the published reference servers (@modelcontextprotocol/server-everything and
// server-filesystem, installed as devDependencies), started over stdio from their package's `bin`
// script with this Node: refresh lists their tools, preview is exact from the snapshot without
// starting them and without writing anything, a changed entry makes the tools unknowable until the
// next refresh, and cw send starts the server and runs a call the model makes to one of its tools.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, sessionFile } from './support/cw-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_MCP_PUBLISHED_KEY';
const KEY = `sk-test-${'7'.repeat(32)}`;
const models = useScriptedModels(KEY_ENV, KEY);
const CASE_TIMEOUT_MS = 30_000;

const requireFromRepo = createRequire(join(REPO_ROOT, 'package.json'));

/** The bin script of an installed package, from its package.json `bin` (no npx, no network). */
async function binScript(pkg: string): Promise<string> {
  const manifestPath = requireFromRepo.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${pkg} declares no bin`);
  return join(dirname(manifestPath), bin);
}

/** A launcher that leaves a mark each time the server starts, then runs the real bin script. */
async function countingLauncher(
  folder: string,
  bin: string,
): Promise<{ launcher: string; starts: () => Promise<number> }> {
  const marks = join(folder, 'starts.log');
  const launcher = join(folder, 'launch.mjs');
  await writeFile(
    launcher,
    `import { appendFileSync } from 'node:fs';\nimport { pathToFileURL } from 'node:url';\nappendFileSync(${JSON.stringify(marks)}, 'x');\nawait import(pathToFileURL(${JSON.stringify(bin)}).href);\n`,
  );
  return { launcher, starts: async () => (await readFile(marks, 'utf8').catch(() => '')).length };
}

/** Every file under `root` with its bytes, by relative path. */
async function treeBytes(root: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    out.set(
      `${relative(root, path)}${entry.isDirectory() ? '/' : ''}`,
      entry.isFile() ? await readFile(path) : Buffer.alloc(0),
    );
  }
  return out;
}

interface Manifest {
  route: Record<string, unknown>;
  tools: {
    exact?: {
      active_tool_count: number;
      mcp_server_count: number;
      mcp_tool_count: number;
      projection: {
        omitted_count: number;
        changed: { name: string; tool_origin: string; outcome: string }[];
        more_changed_count: number;
      };
    };
    unavailable?: { reason: string; detail: string | null };
  };
  body: { exact?: { body_sha256: string; body_wire_sha256: string }; unavailable?: { reason: string } };
}

interface ListedServer {
  name: string;
  snapshot: string;
  tool_count: number | null;
  tools: string[];
}

interface PublishedCase {
  readonly title: string;
  readonly server: string;
  readonly pkg: string;
  /** The entry's args after the script, given the test's temp folder. */
  readonly args: (folder: string) => string[];
  /** Sets up the folder (the filesystem server's root and its file). */
  readonly prepare?: (folder: string) => Promise<void>;
  /** Changes the config entry so its fingerprint changes (a new change for each `round`). */
  readonly change: (entry: { args: string[]; env?: Record<string, string> }, round: number) => void;
  /** The MCP tool the model calls, its arguments, and text its result must hold. */
  readonly call: (folder: string, tools: readonly string[]) => { tool: string; arguments: string; includes: string };
}

const NOTE = 'a note only the filesystem server can read: 4f1c2e';

const CASES: readonly PublishedCase[] = [
  {
    title: 'server-everything over stdio',
    server: 'everything',
    pkg: '@modelcontextprotocol/server-everything',
    args: () => ['stdio'],
    // `stdio` is its default transport anyway: the same server under another entry.
    change: (entry) => entry.args.push('stdio'),
    call: () => ({
      tool: 'echo',
      arguments: '{"message":"through the everything server"}',
      includes: 'through the everything server',
    }),
  },
  {
    title: 'server-filesystem over stdio, rooted at a temp folder',
    server: 'filesystem',
    pkg: '@modelcontextprotocol/server-filesystem',
    args: (folder) => [join(folder, 'root')],
    prepare: async (folder) => {
      await mkdir(join(folder, 'root'));
      await writeFile(join(folder, 'root', 'note.txt'), `${NOTE}\n`);
    },
    change: (entry, round) => {
      entry.env = { ...entry.env, CW_TEST_MARK: `changed-${round}` };
    },
    call: (folder, tools) => ({
      tool: tools.includes('read_text_file') ? 'read_text_file' : 'read_file',
      arguments: JSON.stringify({ path: join(folder, 'root', 'note.txt') }),
      includes: NOTE,
    }),
  },
];

describe('MCP with the published reference servers', () => {
  for (const testCase of CASES) {
    it(
      `${testCase.title}: refresh, exact preview that starts and writes nothing, stale after a change, send runs a tool and refreshes the snapshot`,
      async () => {
        const { server } = testCase;
        const prefix = `mcp__${server}__`;
        const folder = await models.folder(`cw-mcp-${server}-`);
        await testCase.prepare?.(folder);
        const counting = await countingLauncher(folder, await binScript(testCase.pkg));
        const entry = { command: process.execPath, args: [counting.launcher, ...testCase.args(folder)] };

        // The call is scripted once the tools are known; the model is started first for the home.
        const model = await models.model('chat-completions');
        const home = await models.home(model, { approval: 'workspace', mcpServers: { [server]: entry } });
        const env = models.envFor(home);
        const preview = async (): Promise<Manifest> => {
          const run = await runCwChild(['preview-request', 'json', '--prompt', 'hi'], env);
          expect(run.code, run.stderr).toBe(0);
          return JSON.parse(run.stdout) as Manifest;
        };

        // Refresh: the server answers and the snapshot holds its tools, fresh.
        const refresh = await runCwChild(['mcp', 'refresh'], env);
        expect(refresh.code, refresh.stderr).toBe(0);
        expect(await counting.starts()).toBe(1);
        const list = await runCwChild(['mcp', 'list', '--json'], env);
        expect(list.code, list.stderr).toBe(0);
        const listed = (JSON.parse(list.stdout) as { servers: ListedServer[] }).servers;
        expect(listed.map((entry) => entry.name)).toEqual([server]);
        const [only] = listed as [ListedServer];
        expect(only.snapshot).toBe('fresh');
        expect(only.tool_count).toBeGreaterThan(0);
        expect(only.tools).toHaveLength(only.tool_count ?? -1);
        const call = testCase.call(folder, only.tools);
        expect(only.tools).toContain(call.tool);

        // Preview: exact, from the snapshot; it starts nothing and leaves every byte of the home as it was.
        const homeBefore = await treeBytes(home);
        const manifest = await preview();
        expect(await treeBytes(home)).toEqual(homeBefore);
        expect(await counting.starts()).toBe(1);
        expect(manifest.tools.unavailable).toBeUndefined();
        expect(manifest.body.unavailable).toBeUndefined();
        const tools = manifest.tools.exact!;
        const body = manifest.body.exact!;
        expect(body.body_sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(tools.mcp_server_count).toBe(1);
        const omittedMcp = tools.projection.changed.filter(
          (changed) => changed.tool_origin === 'mcp' && changed.outcome === 'omitted',
        );
        expect(tools.projection.more_changed_count).toBe(0);
        expect(tools.mcp_tool_count).toBe(only.tools.length - omittedMcp.length);
        for (const changed of tools.projection.changed) {
          expect(changed.tool_origin).toBe(changed.name.startsWith(prefix) ? 'mcp' : 'plugin');
        }

        // A changed entry: the snapshot no longer matches; tools and body are unknowable, the route is not.
        const configPath = join(home, 'config.json');
        const config = JSON.parse(await readFile(configPath, 'utf8'));
        testCase.change(config.mcpServers[server], 1);
        await writeFile(configPath, JSON.stringify(config));
        const stale = await preview();
        expect(stale.tools.unavailable?.reason).toBe('mcp-state-not-snapshottable');
        expect(stale.body.unavailable).toBeDefined();
        expect(stale.route['exact']).toBeDefined();
        expect(stale.route).toEqual(manifest.route);
        expect(await counting.starts()).toBe(1);

        // Refreshed again: exact again, and (the server lists the same tools) the same body.
        const again = await runCwChild(['mcp', 'refresh'], env);
        expect(again.code, again.stderr).toBe(0);
        expect(await counting.starts()).toBe(2);
        const fresh = await preview();
        expect(fresh.tools.exact).toEqual(tools);
        expect(fresh.body.exact).toEqual(body);

        // Send: the server is started for the turn, the model calls its tool, and then answers.
        model.andThen(
          { reply: { calls: [{ id: 'call_mcp', name: `${prefix}${call.tool}`, arguments: call.arguments }] } },
          { carries: [{ id: 'call_mcp', includes: call.includes }], reply: { text: 'the server answered' } },
        );
        const snapshotPath = join(home, 'mcp', 'snapshot.json');
        const snapshotBefore = await readFile(snapshotPath, 'utf8');
        const send = await runCwChild(['send', '--prompt', 'hi'], env);
        expect(send.code, send.stderr).toBe(0);
        expect(send.stdout).toContain('the server answered');
        expect(model.problems).toEqual([]);
        expect(model.requests).toHaveLength(2);
        expect(await counting.starts()).toBe(3);
        // The first request is the body the preview described, tool for tool.
        expect(model.requests[0]?.canonicalSha256).toBe(body.body_sha256);
        expect(model.requests[0]?.wireSha256).toBe(body.body_wire_sha256);
        const sent = (model.requests[0]?.view.body['tools'] ?? []) as { function: { name: string } }[];
        expect(sent).toHaveLength(tools.active_tool_count);
        const sentMcp = sent.map((tool) => tool.function.name).filter((name) => name.startsWith('mcp__'));
        expect(sentMcp.every((name) => name.startsWith(prefix))).toBe(true);
        expect(sentMcp).toHaveLength(tools.mcp_tool_count);
        const omittedNames = new Set(omittedMcp.map((changed) => changed.name));
        // The published servers' names are already sendable: each goes out as mcp__<server>__<tool>, unhashed.
        expect(sentMcp).toEqual(only.tools.map((tool) => `${prefix}${tool}`).filter((name) => !omittedNames.has(name)));
        expect(model.resultsOf(1).get('call_mcp')).toContain(call.includes);
        const session = JSON.parse(await readFile(await sessionFile(home), 'utf8')) as {
          messages: { role: string; name?: string; status?: string; content?: string }[];
        };
        const result = session.messages.find((message) => message.role === 'tool');
        expect(result).toMatchObject({ name: `${prefix}${call.tool}`, status: 'ok' });
        expect(result?.content).toContain(call.includes);
        // The send listed what the snapshot already held: the entry is kept as it was (its refreshed_at
        // too), and the next preview is still exact.
        expect(await readFile(snapshotPath, 'utf8')).toBe(snapshotBefore);
        const list2 = await runCwChild(['mcp', 'list', '--json'], env);
        expect((JSON.parse(list2.stdout) as { servers: ListedServer[] }).servers[0]?.snapshot).toBe('fresh');

        // Changed again, then a send instead of a refresh: the send stores what the server listed for
        // the entry as it is now, so the next preview is exact without a refresh.
        const config2 = JSON.parse(await readFile(configPath, 'utf8'));
        testCase.change(config2.mcpServers[server], 2);
        await writeFile(configPath, JSON.stringify(config2));
        expect((await preview()).tools.unavailable?.reason).toBe('mcp-state-not-snapshottable');
        model.andThen({ reply: { text: 'nothing to call' } });
        const send2 = await runCwChild(['send', '--prompt', 'again'], env);
        expect(send2.code, send2.stderr).toBe(0);
        expect(model.problems).toEqual([]);
        expect(await counting.starts()).toBe(4);
        const after = await preview();
        expect(after.tools.exact).toEqual(tools);
        expect(after.body.exact?.body_sha256).toMatch(/^[0-9a-f]{64}$/);
      },
      CASE_TIMEOUT_MS,
    );
  }
});
