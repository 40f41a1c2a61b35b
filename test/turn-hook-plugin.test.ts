// A third party taps the turn the way the built-in features do (docs/plugin-authors.md, "Turn
// hooks"): the fixture plugin test/fixtures/turn-plugins/usage-ledger, installed like any plugin,
// records every request's usage through `afterRequest` and stops turns through `gate` once its
// limit is reached. Nothing under core/ knows it: its reason shows in preview as
// `blocked-by-plugin-gate` with its name, and a send it stops sends nothing and saves nothing.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAgent, type AgentEvent, type PluginDescriptor, type RequestManifest } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { builtinPluginDescriptors, DEFAULT_ROUTE_ID, FAKE_KEY, REPO_ROOT } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';
import { isNoSandboxNotice, withoutNoSandboxNotice } from './support/require-bubblewrap.js';

const KEY_ENV = 'CW_TURN_PLUGIN_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
const NAME = 'cw-fixture-usage-ledger';
const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'turn-plugins', 'usage-ledger');

interface Ledger {
  limit: number | null;
  requests: { body_sha256: string; side: boolean; input_tokens: number; output_tokens: number }[];
}

const readLedger = async (home: string): Promise<Ledger> =>
  JSON.parse(await readFile(join(home, 'usage-ledger.json'), 'utf8')) as Ledger;

async function fixtureDescriptor(): Promise<PluginDescriptor> {
  const pjson = JSON.parse(await readFile(join(FIXTURE, 'package.json'), 'utf8')) as { version: string; cw: unknown };
  return { name: NAME, version: pjson.version, root: FIXTURE, cw: pjson.cw, type: 'user' };
}

function reasons(manifest: RequestManifest): (string | null)[] {
  return (['route', 'tools', 'body'] as const).map((section) => {
    const value = manifest[section];
    return 'unavailable' in value ? value.unavailable.reason : null;
  });
}

describe('a third-party turn-hook plugin', () => {
  it('records each request of a tool loop, then its gate stops the next turn in preview and send', async () => {
    const call = { id: 'call_1', name: 'list_directory', arguments: '{"path":"."}' };
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [call] } },
      { carries: [{ id: 'call_1', includes: '' }], reply: { text: 'listed' } },
    );
    const ws = await models.folder('cw-turn-plugin-ws-');
    const home = await models.home(model, { workspace: ws, approval: 'workspace' });
    const env = { ...process.env, ...models.envFor(home) };
    const agent = await createAgent({
      home,
      cwd: ws,
      env,
      plugins: [...(await builtinPluginDescriptors()), await fixtureDescriptor()],
      defaultRouteId: DEFAULT_ROUTE_ID,
    });
    expect(agent.registry.problems).toEqual([]);

    const run = agent.run('list the files');
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    await run.result;
    const starts = events.flatMap((event) => (event.type === 'step-start' ? [event.body_sha256] : []));
    expect(starts).toHaveLength(2);
    // afterRequest saw both requests, with the hash each step went out with and the provider's usage.
    const ledger = await readLedger(home);
    expect(ledger.requests).toEqual([
      { body_sha256: starts[0], side: false, input_tokens: 100, output_tokens: 7 },
      { body_sha256: starts[1], side: false, input_tokens: 101, output_tokens: 7 },
    ]);
    expect(model.requests.map((request) => request.canonicalSha256)).toEqual(starts);

    // Below the limit the gate lets the turn go; at it, the plugin's reason stands in every section.
    await writeFile(join(home, 'usage-ledger.json'), JSON.stringify({ ...ledger, limit: 1_000 }));
    expect(reasons((await agent.preview('next')).manifest)).toEqual([null, null, null]);
    await writeFile(join(home, 'usage-ledger.json'), JSON.stringify({ ...ledger, limit: 200 }));
    const { manifest } = await agent.preview('next');
    expect(reasons(manifest)).toEqual(Array(3).fill('blocked-by-plugin-gate'));
    const route = manifest.route as { unavailable: { detail: string | null } };
    expect(route.unavailable.detail).toBe(`${NAME}: token limit reached: 215 of 200`);

    const before = await homeBytes(home);
    const stopped = agent.run('next');
    const seen: AgentEvent['type'][] = [];
    for await (const event of stopped) if (!isNoSandboxNotice(event)) seen.push(event.type);
    await expect(stopped.result).rejects.toMatchObject({ reason: 'blocked-by-plugin-gate' });
    expect(seen).toEqual(['turn-start', 'error']);
    expect(model.requests).toHaveLength(2);
    expect(await homeBytes(home)).toEqual(before);
  });

  it('works installed in the plugin data folder, through the CLI, with the same words', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'hello there' } });
    const ws = await models.folder('cw-turn-plugin-cli-');
    const home = await models.home(model, { workspace: ws });
    const env = models.envFor(home);
    const { CW_DATA_DIR: data = '' } = env;
    await mkdir(join(data, 'node_modules'), { recursive: true });
    await cp(FIXTURE, join(data, 'node_modules', NAME), { recursive: true });
    await writeFile(
      join(data, 'package.json'),
      JSON.stringify({ private: true, oclif: { schema: 1, plugins: [{ name: NAME, tag: 'latest', type: 'user' }] } }),
    );
    try {
      const sent = await runCwChild(['send', '--prompt', 'hi'], env, { cwd: ws });
      expect(sent.code, sent.stderr).toBe(0);
      expect((await readLedger(home)).requests).toHaveLength(1);
      await writeFile(join(home, 'usage-ledger.json'), JSON.stringify({ ...(await readLedger(home)), limit: 10 }));
      const preview = await runCwChild(['preview-request', 'json', '--prompt', 'again'], env, { cwd: ws });
      expect(preview.code, preview.stderr).toBe(0);
      expect(reasons(JSON.parse(preview.stdout) as RequestManifest)).toEqual(Array(3).fill('blocked-by-plugin-gate'));
      const refused = await runCwChild(['send', '--prompt', 'again'], env, { cwd: ws });
      expect(refused.code).toBe(1);
      expect(withoutNoSandboxNotice(refused.stderr)).toBe(
        `cw: this turn cannot be sent: blocked-by-plugin-gate (${NAME}: token limit reached: 107 of 10): raise limit in usage-ledger.json; the request was not sent\n`,
      );
      expect(model.requests).toHaveLength(1);
    } finally {
      await writeFile(join(data, 'package.json'), JSON.stringify({ private: true }));
    }
  });
});
