// What a sent turn cost, as scripts read it: `cw send --json` and `--output-format stream-json` on a
// built-in route with a published price, sent to a scripted model on loopback through the test origin
// (docs/transport.md) with a fake key. The scripted model reports 100+N input and 7 output tokens per
// request; claude-sonnet-4-6 costs $3 in and $15 out per million, so request N costs
// (100+N) × 3 + 7 × 15 micro-dollars.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { type ScriptedCall, useScriptedModels } from './support/scripted-model.js';
import { runCwChild, sessionMessages } from './support/spawn-cw.js';

const KEY_ENV = 'CW_COST_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

const schema = JSON.parse(await readFile(new URL('../docs/events.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

const READ: ScriptedCall = { id: 'call_read_1', name: 'read_file', arguments: JSON.stringify({ path: 'notes.txt' }) };

/** A home on the built-in `anthropic` route whose requests go to a scripted model: read a file, then answer. */
async function pricedLoop() {
  const model = await models.model(
    'anthropic-messages',
    { reply: { calls: [READ] } },
    { carries: [{ id: READ.id, includes: 'remember the milk' }], reply: { text: 'It says milk.' } },
  );
  const ws = await models.folder('cw-cost-ws-');
  await writeFile(join(ws, 'notes.txt'), 'remember the milk\n');
  const home = await models.home(model, { route: 'anthropic', workspace: ws, approval: 'workspace' });
  const env = models.envFor(home, {
    CW_TEST_ORIGIN: model.origin,
    CW_TEST_MODE: 'loopback-fake-keys',
    ANTHROPIC_API_KEY: FAKE_KEY,
  });
  return { model, home, env };
}

describe('the cost of a sent turn', () => {
  it('--json: each step, the turn and the session, in USD, exactly', async () => {
    const { model, home, env } = await pricedLoop();
    const run = await runCwChild(['send', '--json', '--prompt', 'what do my notes say?'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(model.problems).toEqual([]);
    const printed = JSON.parse(run.stdout) as {
      usage: { input_tokens: number; output_tokens: number };
      cost: unknown;
      session_cost: unknown;
      steps: { usage: { input_tokens: number; output_tokens: number }; cost: unknown }[];
    };
    expect(printed.steps.map((step) => step.usage)).toEqual([
      { input_tokens: 100, output_tokens: 7 },
      { input_tokens: 101, output_tokens: 7 },
    ]);
    // 100 × 3 + 7 × 15 = 405 µ$; 101 × 3 + 7 × 15 = 408 µ$.
    expect(printed.steps.map((step) => step.cost)).toEqual([{ usd: 0.000405 }, { usd: 0.000408 }]);
    expect(printed.cost).toEqual({ usd: 0.000813 });
    expect(printed.session_cost).toEqual({ usd: 0.000813, steps_without_cost: 0 });

    // Each reply stores its cost beside its usage, so the next turn's session total includes it.
    const stored = (await sessionMessages(home)).filter((message) => message['role'] === 'assistant');
    expect(stored.map((message) => message['cost_usd'])).toEqual([0.000405, 0.000408]);

    model.andThen({ reply: { text: 'Still milk.' } });
    const next = await runCwChild(['send', '--json', '--prompt', 'and now?'], env);
    expect(next.code, next.stderr).toBe(0);
    const again = JSON.parse(next.stdout) as { cost: unknown; session_cost: unknown };
    // The third request carries 102 input tokens: 306 + 105 = 411 µ$.
    expect(again.cost).toEqual({ usd: 0.000411 });
    expect(again.session_cost).toEqual({ usd: 0.001224, steps_without_cost: 0 });
  });

  it('stream-json: step-finish and result carry the costs, valid against docs/events.schema.json', async () => {
    const { model, env } = await pricedLoop();
    const run = await runCwChild(['send', '--output-format', 'stream-json', '--prompt', 'what do my notes say?'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(model.problems).toEqual([]);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((text) => {
        const line = JSON.parse(text) as Record<string, unknown>;
        expect(validate(line), `${text}\n${JSON.stringify(validate.errors)}`).toBe(true);
        return line;
      });
    const finishes = lines.filter((line) => line['type'] === 'step-finish');
    expect(finishes.map((line) => line['cost'])).toEqual([{ usd: 0.000405 }, { usd: 0.000408 }]);
    expect(lines.at(-1)).toMatchObject({
      type: 'result',
      cost: { usd: 0.000813 },
      session_cost: { usd: 0.000813, steps_without_cost: 0 },
    });
  });

  it('a route without a price says why, in every format, and stores no cost', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'Hello.' } });
    const home = await models.home(model);
    const run = await runCwChild(['send', '--json', '--prompt', 'hi'], models.envFor(home));
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as { cost: unknown; session_cost: unknown; steps: { cost: unknown }[] };
    expect(printed.steps.map((step) => step.cost)).toEqual([{ usd: null, reason: 'no-published-price' }]);
    expect(printed.cost).toEqual({ usd: null, reason: 'no-published-price' });
    expect(printed.session_cost).toEqual({ usd: 0, steps_without_cost: 1 });
    const stored = (await sessionMessages(home)).filter((message) => message['role'] === 'assistant');
    expect(stored.map((message) => 'cost_usd' in message)).toEqual([false]);
  });
});
