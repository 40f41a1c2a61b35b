// Every runtime gate from real configuration and files, stacked in one cw home and taken away one at
// a time (docs/preview-request.md, "Which configuration produces which reason"). At each state the
// BUILT CLI previews (the home must stay byte-identical, and the first applicable reason wins with the
// seed's propagation to route, tools and body) and cw send meets the same gate against a scripted
// model on 127.0.0.1: it stops with that reason and sends nothing, or, for compaction, compacts first.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestManifest } from '@cw/core';
import { FAKE_KEY, sessionsFolder, writeSession } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { previewFromWorkspace } from './support/preview-from-workspace.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_GATES_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
type Reasons = [string | null, string | null, string | null];
/** config.json as this test edits it. */
interface Config {
  routes: { fault: Record<string, unknown>; other?: Record<string, unknown> };
  [key: string]: unknown;
}

describe('runtime gates from real configuration', () => {
  it('each gate in precedence order: preview leaves the home byte-identical, send stops the same way', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { text: 'SUMMARY-TEXT' } },
      { reply: { text: 'sent at last' } },
    );
    const ws = await models.folder('cw-gates-ws-');
    await mkdir(join(ws, '.git'));
    await writeFile(join(ws, 'notes.txt'), 'notes\n');
    const home = await models.home(model, { workspace: ws, approval: 'read-only', reasoning: 'high' });
    const env = models.envFor(home);
    const configFile = join(home, 'config.json');
    const baseConfig = JSON.parse(await readFile(configFile, 'utf8')) as Config;
    baseConfig.routes.fault = { ...baseConfig.routes.fault, context_window: 12_000, max_output_tokens: 1_000 };
    baseConfig.routes.other = { ...baseConfig.routes.fault };
    let config: Config = {
      ...baseConfig,
      route: 'auto',
      auto: { classifier_route: 'fault', candidates: ['fault', 'other'] },
      hooks: { message_submit: [{ command: [process.execPath, '-e', 'process.exit(0)'] }] },
      mcpServers: { files: { command: process.execPath, args: ['no-such-server.js'] } },
      compaction: { threshold: 0.4 },
    };
    const setConfig = async (next: Config) => {
      config = next;
      await writeFile(configFile, JSON.stringify(config));
    };
    await setConfig(config);
    // Older turns that fill 40% of the small route's input budget.
    await writeSession(
      home,
      'default',
      [
        { role: 'user', content: `OLDER ${'o'.repeat(20_000)}` },
        { role: 'assistant', content: 'older answer' },
        { role: 'user', content: 'RECENT' },
        { role: 'assistant', content: 'recent answer' },
      ],
      ws,
    );
    // A pending skill whose SKILL.md is broken.
    await mkdir(join(ws, '.cw', 'skills', 'tidy'), { recursive: true });
    await writeFile(
      join(ws, '.cw', 'skills', 'tidy', 'SKILL.md'),
      '---\nname: tidy\ndescription: Tidies.\n---\nTidy.\n',
    );
    expect((await runCwChild(['skills', 'use', 'tidy'], env, { cwd: ws })).code).toBe(0);
    await writeFile(join(ws, '.cw', 'skills', 'tidy', 'SKILL.md'), 'no front matter\n');
    // A goal file that cannot be read: a folder where the file should be.
    const goalFile = join(await sessionsFolder(home, ws), 'default.goal.json');
    await mkdir(goalFile);

    const preview = (prompt: string | undefined): Promise<RequestManifest> =>
      previewFromWorkspace(home, env, ws, prompt);
    const reasonsOf = (manifest: RequestManifest): Reasons =>
      (['route', 'tools', 'body'] as const).map((section) =>
        'unavailable' in manifest[section] ? manifest[section].unavailable.reason : null,
      ) as Reasons;
    /** Preview with the prompt (and without, when given) gives `reasons`; send stops with the first one, sending nothing. */
    const gate = async (prompt: string, reasons: Reasons, bare?: Reasons, send = true) => {
      const manifest = await preview(prompt);
      expect(reasonsOf(manifest), prompt).toEqual(reasons);
      if (bare !== undefined) expect(reasonsOf(await preview(undefined))).toEqual(bare);
      if (!send) return manifest;
      const before = await homeBytes(home);
      const sent = await runCwChild(['send', '--prompt', prompt], env, { cwd: ws });
      expect(sent.code, sent.stderr).toBe(1);
      const reason = reasons.find((found) => found !== null) ?? 'none';
      // An overflow is said in figures (docs/preview-request.md); every other gate by its reason.
      expect(sent.stderr).toContain(
        reason === 'input-budget-exceeded' ? 'but the input budget of this route is' : reason,
      );
      expect(await homeBytes(home)).toEqual(before);
      expect(model.requests).toHaveLength(0);
      return manifest;
    };
    const all = (reason: string): Reasons => [reason, reason, reason];
    const mention = 'see @missing.txt';

    // 1. The goal comes first of all.
    const first = await gate(mention, all('goal-state-not-snapshottable'), all('goal-state-not-snapshottable'));
    expect(first.session).toMatchObject({
      requested_route: 'auto',
      requested_model: 'auto',
      routing_mode: 'auto',
      requested_reasoning: 'high',
      approval_mode: 'read-only',
      message_submit_hook_count: 1,
      pending_skill: 'tidy',
      goal_state: 'not-snapshottable',
    });
    await rm(goalFile, { recursive: true });
    await writeFile(goalFile, JSON.stringify({ version: 1, text: 'g', token_budget: 10, tokens_used: 10 }));
    expect(
      (await gate(mention, all('goal-token-budget-exhausted'), all('goal-token-budget-exhausted'))).session.goal_state,
    ).toBe('budget-exhausted');

    // 2. Then, in the order a send meets them: the hooks, the prompt, and only then auto routing's
    // classifier (docs/architecture.md, "The turn's hooks"). Without a prompt, auto routing has no route.
    expect((await runCwChild(['goal', 'set', '--token-budget', '100000'], env)).code).toBe(0);
    await gate(
      mention,
      all('message-submit-hooks-not-executed'),
      all('auto-route-unresolved-until-next-prompt'),
      false,
    );

    // 3. A fixed route: hooks, which win over prompt resolution.
    const { auto: _auto, ...fixed }: Config = { ...config, route: 'fault', model: 'm' };
    await setConfig(fixed);
    const hooked = await gate(
      mention,
      all('message-submit-hooks-not-executed'),
      all('no-hypothetical-prompt-supplied'),
      false,
    );
    expect(hooked.session).toMatchObject({
      requested_route: 'fault',
      requested_model: 'm',
      routing_mode: 'fixed-route',
    });

    // 4. No hooks: the mention (ahead of MCP), then the broken pending skill. cw send starts MCP
    // servers before it resolves the prompt, so its side of this gate is shown without them.
    const { hooks: _hooks, ...unhooked } = config;
    await setConfig(unhooked);
    await gate(mention, all('prompt-resolution-failed'), undefined, false);
    const { mcpServers, ...noMcp } = config;
    await setConfig(noMcp);
    await gate(mention, all('prompt-resolution-failed'));
    const skill = await gate('see @notes.txt', all('prompt-resolution-failed'));
    if (!('unavailable' in skill.body)) throw new Error('body exact');
    expect(skill.body.unavailable.detail).toBe(
      'the pending skill tidy: SKILL.md has no front matter (a --- line first)',
    );
    expect((await runCwChild(['skills', 'clear'], env, { cwd: ws })).code).toBe(0);

    // 5. MCP state that cannot be known offline takes tools and the body; the route stays exact.
    await setConfig({ ...config, mcpServers });
    await gate('go on', [null, 'mcp-state-not-snapshottable', 'mcp-state-not-snapshottable'], undefined, false);

    // 6. Without MCP: compaction would rewrite the request first; route and tools stay exact.
    await setConfig(noMcp);
    const compacting = await gate('go on', [null, null, 'runtime-transforms-before-send'], undefined, false);
    if (!('unavailable' in compacting.body)) throw new Error('body exact');
    expect(compacting.body.unavailable.detail).toMatch(/^auto-compaction would summarise 2 earlier messages first/);

    // 7. Compaction off and a budget the body does not fit: input-budget-exceeded, refused by send.
    await setConfig({
      ...config,
      compaction: { enabled: false },
      routes: { ...config.routes, fault: { ...config.routes.fault, context_window: 6_000 } },
    });
    await gate('go on', [null, null, 'input-budget-exceeded']);

    // 8. Compaction on again: send compacts, then sends, and the request is exact in preview once more.
    await setConfig({ ...config, compaction: { threshold: 0.4 } });
    const sent = await runCwChild(['send', '--prompt', 'go on'], env, { cwd: ws });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toContain('sent at last');
    expect(model.requests).toHaveLength(2);
    expect(reasonsOf(await preview('and now'))).toEqual([null, null, null]);
    // About thirty child processes, one after another.
  }, 120_000);
});
