// One send reads its state once (docs/architecture.md, "One read per send"): the features' session
// state (`loadState`) once, the session file once, and each step planned once — step 1 included —
// the way `cw send` drives the Agent API (load the snapshot, then run the turn on it). The counts are
// taken on the core's own functions, so a second load or read that comes back fails here.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { turnHooksOf } from '../core/src/turn/core-turn-types.js';
import { FAKE_KEY } from './support/cw-fixture.js';
import { scriptedAgent } from './support/scripted-agent.js';
import { useScriptedModels } from './support/scripted-model.js';
import { readSession } from '../core/src/state/session-store.js';

const counts = vi.hoisted(() => ({ sessionReads: 0, plans: 0 }));

vi.mock('../core/src/state/session-store.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../core/src/state/session-store.js')>();
  return {
    ...original,
    readSession: (...args: Parameters<typeof original.readSession>) => {
      counts.sessionReads += 1;
      return original.readSession(...args);
    },
    readStoredSession: (...args: Parameters<typeof original.readStoredSession>) => {
      counts.sessionReads += 1;
      return original.readStoredSession(...args);
    },
  };
});

vi.mock('../core/src/plan-turn.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../core/src/plan-turn.js')>();
  return {
    ...original,
    planTurn: (...args: Parameters<typeof original.planTurn>) => {
      counts.plans += 1;
      return original.planTurn(...args);
    },
  };
});

const KEY_ENV = 'CW_READ_ONCE_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

/** The default session's messages, read without counting. */
async function readSessionFile(home: string, ws: string) {
  const { workspaceKeyOf, sessionKeyOf } = await import('../core/src/state/session-location.js');
  const { realpath } = await import('node:fs/promises');
  const before = counts.sessionReads;
  const messages = await readSession(home, sessionKeyOf(workspaceKeyOf(await realpath(ws)), 'default'));
  counts.sessionReads = before;
  return messages;
}

beforeEach(() => {
  counts.sessionReads = 0;
  counts.plans = 0;
});

/** One `cw send` through the Agent API, counting what it read and planned. */
async function countedSend(home: string, ws: string, prompt: string) {
  const agent = await scriptedAgent(models, home, ws);
  let loads = 0;
  turnHooksOf(agent.registry).loadState.tapPromise('count-loads', async (snapshot) => {
    loads += 1;
    return snapshot;
  });
  counts.sessionReads = 0;
  counts.plans = 0;
  const { snapshot } = await agent.load({}, { repair: true });
  const sent = await agent.run(prompt, { snapshot, approval: 'workspace' }).result;
  return { sent, loads, sessionReads: counts.sessionReads, plans: counts.plans };
}

describe('state read once per send', () => {
  it('one answer: one loadState, one session read, step 1 planned once', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'hello' } }, { reply: { text: 'again' } });
    const ws = await models.folder('cw-read-once-ws-');
    const home = await models.home(model, { workspace: ws });
    // The first send starts the session; the second reads one that has turns.
    for (const prompt of ['hi', 'and again']) {
      const { sent, loads, sessionReads, plans } = await countedSend(home, ws, prompt);
      expect(sent.stopped).toBe('answered');
      expect({ loads, sessionReads, plans }).toEqual({ loads: 1, sessionReads: 1, plans: 1 });
    }
  });

  it('a tool loop: still one load and one read; each step planned once', async () => {
    const read = { id: 'call_read', name: 'read_file', arguments: '{"path":"notes.txt"}' };
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [read] } },
      { carries: [{ id: 'call_read', includes: 'milk' }], reply: { text: 'milk' } },
    );
    const ws = await models.folder('cw-read-once-ws-');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${ws}/notes.txt`, 'milk\n');
    const home = await models.home(model, { workspace: ws });
    const { sent, loads, sessionReads, plans } = await countedSend(home, ws, 'what do my notes say?');
    expect(sent.steps).toHaveLength(2);
    expect({ loads, sessionReads, plans }).toEqual({ loads: 1, sessionReads: 1, plans: 2 });
  });

  it('a session another send changed after the load is read again under the lock, and planned on that', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'first' } }, { reply: { text: 'second' } });
    const ws = await models.folder('cw-read-once-ws-');
    const home = await models.home(model, { workspace: ws });
    const agent = await scriptedAgent(models, home, ws);
    const stale = (await agent.load({}, { repair: true })).snapshot;
    await agent.run('one', {}).result;
    counts.sessionReads = 0;
    const sent = await agent.run('two', { snapshot: stale }).result;
    expect(counts.sessionReads).toBe(1);
    expect(sent.reply.text).toBe('second');
    // The second request carried the first turn: it was planned on the session as it stood.
    expect(model.requests[1]?.view.strings).toContain('first');
    expect(await readSessionFile(home, ws)).toHaveLength(4);
  });
});
