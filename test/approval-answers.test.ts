// The answers a person gives reach the core's one approval store (docs/agent-loop.md, "Answers"):
// a refusal with a reason reaches the model in the tool result, "always" answers last as long as the
// store a host passes, and an asked edit carries its diff and its +N −M summary. Driven through the
// Agent API against a scripted local model.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApprovalStore, type AskedCall, type AgentEvent } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY } from './support/cw-fixture.js';
import { scriptedAgent } from './support/scripted-agent.js';
import { type ScriptedCall, useScriptedModels } from './support/scripted-model.js';

const KEY_ENV = 'CW_APPROVAL_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
const call = (id: string, name: string, args: unknown): ScriptedCall => ({ id, name, arguments: JSON.stringify(args) });
const EDIT = call('call_edit', 'edit_file', { path: 'notes.txt', old_text: 'milk', new_text: 'bread' });
const REASON = 'keep the milk, add eggs below it instead';

describe('approval answers through the Agent API', () => {
  it('no with a reason: the call is refused and the next request carries the reason in its tool result', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [EDIT] } },
      { carries: [{ id: EDIT.id, includes: REASON }], reply: { text: 'Understood.' } },
    );
    const ws = await models.folder('cw-approval-ws-');
    await writeFile(join(ws, 'notes.txt'), 'remember the milk\n');
    const home = await models.home(model, { workspace: ws, approval: 'ask' });
    const agent = await scriptedAgent(models, home, ws);
    const asked: AskedCall[] = [];
    const run = agent.run('swap milk for bread', {
      approvalEvents: true,
    });
    const events: AgentEvent[] = [];
    for await (const event of run) {
      events.push(event);
      if (event.type === 'approval-request') {
        asked.push(event.call);
        event.respond({ answer: 'no', reason: REASON });
      }
    }
    const sent = await run.result;
    expect(sent.stopped).toBe('answered');
    expect(model.problems).toEqual([]);
    expect(model.resultsOf(1).get(EDIT.id)).toContain(`saying: ${REASON}`);
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('remember the milk\n');
    // The question carried the diff the edit would make, its path relative to the workspace.
    expect(asked[0]?.change).toMatchObject({ path: 'notes.txt', added: 1, removed: 1, created: false });
    expect(asked[0]?.change?.hunks[0]?.lines).toEqual([
      { kind: '-', text: 'remember the milk\n' },
      { kind: '+', text: 'remember the bread\n' },
    ]);
    const refused = events.find((event) => event.type === 'tool-result');
    expect(refused?.type === 'tool-result' && refused.record.changes).toBeFalsy();
  });

  it('always this tool, kept in a store the host passes, covers the next turn; the result counts the change', async () => {
    const second = call('call_edit_2', 'edit_file', {
      path: 'notes.txt',
      old_text: 'bread',
      new_text: 'eggs\nand bread',
    });
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [EDIT] } },
      { carries: [{ id: EDIT.id, includes: 'edited notes.txt' }], reply: { text: 'Swapped.' } },
      { reply: { calls: [second] } },
      { carries: [{ id: second.id, includes: 'edited notes.txt' }], reply: { text: 'Added.' } },
    );
    const ws = await models.folder('cw-approval-ws-');
    await writeFile(join(ws, 'notes.txt'), 'remember the milk\n');
    const home = await models.home(model, { workspace: ws, approval: 'ask' });
    const agent = await scriptedAgent(models, home, ws);
    const approvals = new ApprovalStore();
    const asked: string[] = [];
    const changes: unknown[] = [];
    for (const prompt of ['swap milk for bread', 'add eggs']) {
      const run = agent.run(prompt, {
        approvals,
        onApproval: async (question) => {
          asked.push(question.id);
          return 'always';
        },
      });
      for await (const event of run) if (event.type === 'tool-result') changes.push(event.record.changes);
      await run.result;
    }
    expect(asked).toEqual([EDIT.id]);
    expect(changes).toEqual([
      [{ path: 'notes.txt', added: 1, removed: 1 }],
      [{ path: 'notes.txt', added: 2, removed: 1 }],
    ]);
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('remember the eggs\nand bread\n');
    expect(model.problems).toEqual([]);
  });
});
