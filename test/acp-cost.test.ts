// `cw acp`'s `usage_update` carries the session's cumulative cost as ACP's `Cost` ({ amount, currency }),
// driven by the ACP SDK's own client against the BUILT CLI (run `npm run build` first), on the built-in
// `anthropic` route sent to a scripted model through the test origin with a fake key.
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { useScriptedModels } from './support/scripted-model.js';
import { spawnCw } from './support/spawn-cw.js';

const KEY_ENV = 'CW_ACP_COST_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

interface ZodLike {
  safeParse(value: unknown): { success: boolean; error?: unknown };
}
const sdkEntry = createRequire(import.meta.url).resolve('@agentclientprotocol/sdk');
const schemas = (await import(pathToFileURL(join(dirname(sdkEntry), '..', 'schema', 'zod.gen.js')).href)) as Record<
  string,
  ZodLike
>;

describe('cw acp usage_update', () => {
  it('carries the session cost in USD after each prompt, summed across prompts', async () => {
    const model = await models.model(
      'anthropic-messages',
      { reply: { text: 'Hello.' } },
      { reply: { text: 'Hello again.' } },
    );
    const ws = await models.folder('cw-acp-cost-ws-');
    await writeFile(join(ws, 'notes.txt'), 'remember the milk\n');
    const home = await models.home(model, { route: 'anthropic', workspace: ws, approval: 'read-only' });
    const env = models.envFor(home, {
      CW_TEST_ORIGIN: model.origin,
      CW_TEST_MODE: 'loopback-fake-keys',
      ANTHROPIC_API_KEY: FAKE_KEY,
    });

    const updates: acp.SessionNotification[] = [];
    const client = acp
      .client({ name: 'test-editor' })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        updates.push(params);
      });
    const child = spawnCw(['acp'], env, { cwd: ws });
    const { stdin, stdout } = child.child;
    if (stdin === null || stdout === null) throw new Error('no pipes');
    const stream = acp.ndJsonStream(
      Writable.toWeb(stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(stdout) as ReadableStream<Uint8Array>,
    );
    await client.connectWith(stream, async (agent) => {
      await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const created = await agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      for (const text of ['hi', 'and again'])
        expect(
          (
            await agent.request(acp.methods.agent.session.prompt, {
              sessionId: created.sessionId,
              prompt: [{ type: 'text', text }],
            })
          ).stopReason,
        ).toBe('end_turn');
    });
    stdin.end();
    const exit = await child.done;
    expect(exit.code, exit.stderr).toBe(0);
    expect(model.problems).toEqual([]);

    const usage = updates.flatMap((notification) =>
      notification.update.sessionUpdate === 'usage_update' ? [notification] : [],
    );
    for (const notification of usage) {
      const checked = schemas['zSessionNotification']?.safeParse(notification);
      expect(checked?.success, String(checked?.error)).toBe(true);
    }
    // Request N reports 100+N input and 7 output tokens: 300 + 105 = 405 µ$, then 303 + 105 = 408 µ$.
    expect(usage.map((notification) => (notification.update as { cost?: unknown }).cost)).toEqual([
      { amount: 0.000405, currency: 'USD' },
      { amount: 0.000813, currency: 'USD' },
    ]);
  });
});
