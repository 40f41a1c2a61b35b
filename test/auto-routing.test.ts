// Auto routing end to end (docs/auto-routing.md): the BUILT CLI with config `route: "auto"`, a
// classifier route and two candidate routes, each on its own scripted model on 127.0.0.1. Preview
// never calls the classifier: it says auto-route-unresolved-until-next-prompt without a prompt and
// auto-route-classification-not-executed with one, publishes no route, tools or body, and leaves the
// home byte-identical. cw send asks the classifier once, plans on its choice, sends there and records
// the choice; an answer naming no candidate stops the send with nothing sent or saved.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestManifest } from '@cw/core';
import { FAKE_KEY, sessionsFolder } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { previewFromWorkspace } from './support/preview-from-workspace.js';
import { type ScriptedModel, type ScriptedStep, useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';
import { withoutNoSandboxNotice } from './support/require-bubblewrap.js';

const KEY_ENV = 'CW_AUTO_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
const SECTIONS = ['route', 'tools', 'body'] as const;

const routeOn = (model: ScriptedModel, name: string) => ({
  provider: 'custom',
  dialect: model.dialect,
  base_url: `${model.origin}/v1`,
  model: name,
  api_key_env: KEY_ENV,
});

/** A home routing automatically between `quick` and `deep`, classified on `classifier`. */
async function autoHome(
  steps: { classifier?: ScriptedStep[]; quick?: ScriptedStep[]; deep?: ScriptedStep[] },
  extra = {},
) {
  const classifier = await models.model('chat-completions', ...(steps.classifier ?? []));
  const quick = await models.model('chat-completions', ...(steps.quick ?? []));
  const deep = await models.model('chat-completions', ...(steps.deep ?? []));
  const ws = await models.folder('cw-auto-ws-');
  const home = await models.home(classifier, {
    route: 'auto',
    routes: { sorter: routeOn(classifier, 'small'), quick: routeOn(quick, 'fast'), deep: routeOn(deep, 'big') },
    auto: {
      classifier_route: 'sorter',
      candidates: ['quick', { route: 'deep', when: 'debugging, refactoring and anything that needs care' }],
    },
    workspace: ws,
    approval: 'workspace',
    ...extra,
  });
  return { classifier, quick, deep, home, ws, env: models.envFor(home) };
}

const preview = previewFromWorkspace;

const reasons = (manifest: RequestManifest) =>
  SECTIONS.map((section) => ('unavailable' in manifest[section] ? manifest[section].unavailable.reason : null));

describe('auto routing', () => {
  it('preview never classifies: unresolved without a prompt, classification-not-executed with one, no route facts', async () => {
    const { classifier, quick, deep, home, env, ws } = await autoHome({});
    const bare = await preview(home, env, ws);
    expect(reasons(bare)).toEqual(Array(3).fill('auto-route-unresolved-until-next-prompt'));
    expect(bare.session).toMatchObject({ requested_route: 'auto', requested_model: 'auto', routing_mode: 'auto' });
    const prompted = await preview(home, env, ws, 'fix the flaky test');
    expect(reasons(prompted)).toEqual(Array(3).fill('auto-route-classification-not-executed'));
    for (const section of SECTIONS) expect(Object.keys(prompted[section])).toEqual(['unavailable']);
    const text = JSON.stringify(prompted);
    for (const key of ['provider_id', 'route_id', 'wire_model', 'endpoint_host_class', 'body_sha256'])
      expect(text).not.toContain(key);
    const table = await runCwChild(['preview-request', '--prompt', 'fix it'], env, { cwd: ws });
    expect(table.stdout).toContain('reason code                    auto-route-classification-not-executed');
    expect(table.stdout).toContain('Auto routing picks the route with a classifier that preview never runs.');
    expect(classifier.requests.length + quick.requests.length + deep.requests.length).toBe(0);
  });

  it('cw send asks the classifier once, sends the turn on its choice, records it, and counts both against the goal', async () => {
    const { classifier, quick, deep, home, env, ws } = await autoHome({
      classifier: [
        {
          check: (view) => {
            const all = view.strings.join('\n');
            const problems: string[] = [];
            if (view.body['tools'] !== undefined) problems.push('the classifier request carries tools');
            if (!all.includes('- quick') || !all.includes('- deep: debugging, refactoring'))
              problems.push('no candidates');
            if (!all.includes('<request>\nrefactor the parser\n</request>')) problems.push('no request text');
            if (view.body['model'] !== 'small') problems.push('not the classifier model');
            return problems;
          },
          reply: { text: 'deep' },
        },
      ],
      deep: [
        {
          check: (view) => (view.body['model'] === 'big' ? [] : ['not the deep model']),
          reply: { text: 'refactored' },
        },
      ],
    });
    expect((await runCwChild(['goal', 'set', 'parser work', '--token-budget', '10000'], env)).code).toBe(0);
    const sent = await runCwChild(['send', '--prompt', 'refactor the parser'], env, { cwd: ws });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toContain('cw: auto routing chose route deep');
    expect(sent.stdout).toContain('refactored');
    expect([classifier.requests.length, quick.requests.length, deep.requests.length]).toEqual([1, 0, 1]);
    expect([...classifier.problems, ...deep.problems]).toEqual([]);
    expect(JSON.parse(await readFile(join(await sessionsFolder(home, ws), 'default.auto-route.json'), 'utf8'))).toEqual(
      {
        version: 1,
        route: 'deep',
        classifier_route: 'sorter',
      },
    );
    const goal = JSON.parse((await runCwChild(['goal', 'show', '--json'], env)).stdout) as {
      goal: { tokens_used: number };
    };
    expect(goal.goal.tokens_used).toBe(107 + 107);
    // The next prompt is classified afresh; preview still says so.
    expect(reasons(await preview(home, env, ws, 'next'))).toEqual(
      Array(3).fill('auto-route-classification-not-executed'),
    );
  });

  it('a loop that stopped between steps continues on the recorded route, in preview and send', async () => {
    const call = { id: 'call_1', name: 'list_directory', arguments: '{"path":"."}' };
    const { classifier, quick, home, env, ws } = await autoHome({
      classifier: [{ reply: { text: '`quick`.' } }],
      quick: [{ reply: { calls: [call] } }, { carries: [{ id: 'call_1', includes: '' }], reply: { text: 'listed' } }],
    });
    const first = await runCwChild(['send', '--max-steps', '1', '--prompt', 'list the files'], env, { cwd: ws });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('auto routing chose route quick');
    const manifest = await preview(home, env, ws);
    expect(manifest.session.lane_kind).toBe('agent-loop-continuation');
    if (!('exact' in manifest.route)) throw new Error('route unavailable');
    expect(manifest.route.exact.route_id).toBe('quick');
    const continued = await runCwChild(['send'], env, { cwd: ws });
    expect(continued.code, continued.stderr).toBe(0);
    expect(continued.stdout).toContain('listed');
    expect([classifier.requests.length, quick.requests.length]).toEqual([1, 2]);
    expect(quick.problems).toEqual([]);
  });

  it('an answer that names no candidate stops the send: nothing sent to a candidate, nothing saved', async () => {
    const { quick, deep, home, env, ws } = await autoHome({ classifier: [{ reply: { text: 'I would pick both' } }] });
    const before = await homeBytes(home);
    const sent = await runCwChild(['send', '--prompt', 'hello'], env, { cwd: ws });
    expect(sent.code).toBe(1);
    expect(withoutNoSandboxNotice(sent.stderr)).toBe(
      "cw: auto routing: the classifier's answer named no single candidate route; the turn was not sent (docs/auto-routing.md)\n",
    );
    expect(quick.requests.length + deep.requests.length).toBe(0);
    expect(await homeBytes(home)).toEqual(before);
  });

  it('precedence from real config: the goal comes first, then hooks, prompt resolution and auto routing, as a send meets them', async () => {
    const hook = { command: [process.execPath, '-e', 'process.exit(0)'] };
    const { classifier, home, env, ws } = await autoHome({}, { hooks: { message_submit: [hook] } });
    // A send runs the hooks and resolves the prompt before it asks the classifier: preview names the hooks.
    expect(reasons(await preview(home, env, ws, 'see @missing.txt'))).toEqual(
      Array(3).fill('message-submit-hooks-not-executed'),
    );
    // A used-up goal comes before everything; send stops before the classifier is asked.
    expect((await runCwChild(['goal', 'set', 'g', '--token-budget', '1'], env)).code).toBe(0);
    const goal = JSON.parse(
      await readFile(join(await sessionsFolder(home, ws), 'default.goal.json'), 'utf8'),
    ) as Record<string, unknown>;
    await writeFile(
      join(await sessionsFolder(home, ws), 'default.goal.json'),
      JSON.stringify({ ...goal, tokens_used: 5 }),
    );
    for (const prompt of ['hello', undefined])
      expect(reasons(await preview(home, env, ws, prompt))).toEqual(Array(3).fill('goal-token-budget-exhausted'));
    const sent = await runCwChild(['send', '--prompt', 'hello'], env, { cwd: ws });
    expect(sent.code).toBe(1);
    expect(sent.stderr).toContain('goal-token-budget-exhausted');
    expect(classifier.requests).toHaveLength(0);
  });

  it('a prompt that cannot be resolved stops the send before the classifier is asked', async () => {
    const { classifier, env, ws } = await autoHome({});
    const sent = await runCwChild(['send', '--prompt', 'see @missing.txt'], env, { cwd: ws });
    expect(sent.code).toBe(1);
    expect(sent.stderr).toContain('prompt-resolution-failed');
    expect(classifier.requests).toHaveLength(0);
  });

  it('route auto without an auto object is a one-line config error', async () => {
    const model = await models.model('chat-completions');
    const home = await models.home(model, { route: 'auto' });
    const run = await runCwChild(['preview-request', 'json', '--prompt', 'x'], models.envFor(home));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^cw: config\.json:\d+:\d+: route: route auto needs an auto object with classifier_route and candidates \(docs\/auto-routing\.md\); found "auto"\n$/,
    );
  });
});
