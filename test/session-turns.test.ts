import { basename } from 'node:path';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NOT_EXECUTED_RESULT } from '../core/src/prompt/repair-tool-history.js';
import { readSession } from '../core/src/state/session-store.js';
import { FAKE_KEY, onlyWorkspaceFolder, useCwHomes } from './support/cw-fixture.js';
import { runCw } from './support/run-cw.js';
import { validateWireBody } from './support/wire-schemas.js';
import { withoutRequestHash } from './support/spawn-cw.js';

const ORIGIN = 'http://127.0.0.1:18083';

/** The key of the `default` session cw keeps for this repository's workspace. */
async function workspaceSession(home: string): Promise<string> {
  return `${basename(await onlyWorkspaceFolder(home))}/default`;
}

describe('a conversation over several cw send turns', () => {
  const home = useCwHomes();
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    nock.cleanAll();
    delete process.env['CW_TURNS_KEY'];
  });
  afterAll(() => nock.enableNetConnect());

  it('stores a tool call cw did not run, and answers it on the next turn so the provider accepts the history', async () => {
    // The stored history is compared with the prompts as typed: no turn-context block.
    const folder = await home({
      context: { turn_context: false },
      route: 'turns',
      routes: {
        turns: {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: `${ORIGIN}/v1`,
          model: 'm',
          api_key_env: 'CW_TURNS_KEY',
        },
      },
    });
    process.env['CW_TURNS_KEY'] = FAKE_KEY;
    const bodies: unknown[] = [];
    const toolCall = {
      id: 'call_1',
      type: 'function',
      function: { name: 'read_file', arguments: '{"path":"README.md"}' },
    };
    nock(ORIGIN)
      .post('/v1/chat/completions')
      .reply(async (request: Request) => {
        bodies.push(await request.json());
        return [
          200,
          JSON.stringify({ choices: [{ message: { role: 'assistant', content: null, tool_calls: [toolCall] } }] }),
          { 'content-type': 'application/json' },
        ] as const;
      })
      .post('/v1/chat/completions')
      .reply(async (request: Request) => {
        bodies.push(await request.json());
        return [
          200,
          JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'fine' } }] }),
          { 'content-type': 'application/json' },
        ] as const;
      });

    // --no-tool-runs: the calls are handed back unrun, as with the `never` posture.
    expect((await runCw(['send', '--no-tool-runs', '--blocking', '--prompt', 'read the readme'])).exitCode).toBe(0);
    expect(
      (await readSession(folder, await workspaceSession(folder))).map((message) => withoutRequestHash({ ...message })),
    ).toEqual([
      { role: 'user', content: 'read the readme' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"README.md"}' }],
      },
    ]);

    const second = await runCw(['send', '--blocking', '--prompt', 'never mind']);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe('fine\n');
    const messages = (bodies[1] as { messages: { role: string; content?: unknown; tool_call_id?: string }[] }).messages;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: NOT_EXECUTED_RESULT });
    expect(validateWireBody('chat-completions', bodies[1]).errors).toEqual([]);
    expect(await readSession(folder, await workspaceSession(folder))).toHaveLength(4);
  });
});
