// The turn as one stream (docs/agent-loop.md, "The loop as one stream"): the loop yields the Agent
// API's events and takes control as input — an approval through the `approval-request` event's
// `respond`, a lock wait reported as a `notice` event — and `agent.run` passes the events through.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentEvent, runTurn } from '@cw/core';
import { withSessionLock } from '../core/src/state/session-store.js';
import { FAKE_KEY } from './support/cw-fixture.js';
import { scriptedAgent } from './support/scripted-agent.js';
import { useScriptedModels } from './support/scripted-model.js';
import { readTurn } from './support/turn-events.js';

const KEY_ENV = 'CW_TURN_STREAM_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

describe('the turn as one stream', () => {
  it('asks through approval-request events and waits for respond; steps are numbered once', async () => {
    const edit = (id: string, to: string) => ({
      id,
      name: 'edit_file',
      arguments: JSON.stringify({ path: 'notes.txt', old_text: 'milk', new_text: to }),
    });
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [edit('call_yes', 'bread')] } },
      { carries: [{ id: 'call_yes', includes: 'edited notes.txt' }], reply: { calls: [edit('call_no', 'tea')] } },
      { carries: [{ id: 'call_no', includes: '' }], reply: { text: 'done' } },
    );
    const ws = await models.folder('cw-turn-stream-ws-');
    await writeFile(join(ws, 'notes.txt'), 'milk\n');
    const home = await models.home(model, { workspace: ws, approval: 'ask' });
    const agent = await scriptedAgent(models, home, ws);
    const answers = ['yes', 'no'] as const;
    const seen: string[] = [];
    const run = agent.run('edit my notes', { approvalEvents: true });
    for await (const event of run) {
      if (event.type === 'approval-request') {
        // Answered after the reader has moved on to a later tick: the loop waits for it.
        const answer = answers[seen.filter((entry) => entry.startsWith('approval')).length] ?? 'no';
        await new Promise((resolve) => setImmediate(resolve));
        event.respond(answer);
      }
      // A machine without a sandbox says so first; that notice is not this test's subject.
      if (!(event.type === 'notice' && event.notice.kind === 'warning')) seen.push(label(event));
    }
    const sent = await run.result;
    expect(sent.stopped).toBe('answered');
    expect(seen).toEqual([
      'turn-start',
      'step-start 1',
      'approval-request call_yes',
      'tool-call call_yes',
      'tool-result call_yes ok',
      'step-finish 1',
      'step-start 2',
      'approval-request call_no',
      'tool-result call_no refused',
      'step-finish 2',
      'step-start 3',
      'text-delta',
      'step-finish 3',
      'turn-finish 3',
    ]);
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('bread\n');
  });

  it('a wait for the session lock is a notice event, and runTurn returns the outcome after turn-finish', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'hello' } });
    const ws = await models.folder('cw-turn-stream-ws-');
    const home = await models.home(model, { workspace: ws });
    const agent = await scriptedAgent(models, home, ws);
    const { snapshot } = await agent.load();
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    // Another holder of the session's lock, let go only once the turn said it waits.
    const other = withSessionLock(home, snapshot.session.key, async () => {
      holding();
      await released;
    });
    await held;
    const seen: string[] = [];
    const sent = await readTurn(
      runTurn(snapshot, {
        home,
        prompt: 'hi',
        entrypoint: 'streaming',
        env: { ...process.env, ...models.envFor(home) },
      }),
      (event) => {
        seen.push(label(event));
        if (event.type === 'notice' && event.notice.kind === 'session-wait') release();
      },
    );
    await other;
    expect(sent.reply.text).toBe('hello');
    expect(seen).toEqual(['notice session-wait', 'step-start 1', 'text-delta', 'step-finish 1', 'turn-finish 1']);
  });
});

/** An event as one short label: its type and what tells it apart. */
function label(event: AgentEvent): string {
  switch (event.type) {
    case 'step-start':
    case 'step-finish':
      return `${event.type} ${event.step}`;
    case 'turn-finish':
      return `turn-finish ${event.steps}`;
    case 'approval-request':
      return `approval-request ${event.call.id}`;
    case 'tool-call':
      return `tool-call ${event.call.id}`;
    case 'tool-result':
      return `tool-result ${event.record.call.id} ${event.record.status}`;
    case 'notice':
      return `notice ${event.notice.kind}`;
    default:
      return event.type;
  }
}
