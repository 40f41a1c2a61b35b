// `cw acp` (docs/editors.md): the BUILT CLI (run `npm run build` first) runs as a child process, the
// way an editor starts it, and is driven by the ACP SDK's own client side over its stdin and stdout,
// against a scripted model on 127.0.0.1. Every message cw writes must be JSON-RPC, and every
// `session/update` and permission request must be valid against the SDK's own zod schemas.
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY, REPO_ROOT, sessionFile } from './support/cw-fixture.js';
import { MCP_FIXTURE } from './support/mcp-fixture.js';
import { type ScriptedCall, useScriptedModels } from './support/scripted-model.js';
import { type CwExit, spawnCw } from './support/spawn-cw.js';

const KEY_ENV = 'CW_ACP_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

interface ZodLike {
  safeParse(value: unknown): { success: boolean; error?: unknown };
}
// The SDK's generated zod schemas: not in its exports map, so imported from its files.
const sdkEntry = createRequire(import.meta.url).resolve('@agentclientprotocol/sdk');
const schemas = (await import(pathToFileURL(join(dirname(sdkEntry), '..', 'schema', 'zod.gen.js')).href)) as Record<
  string,
  ZodLike
>;

const call = (id: string, name: string, args: unknown): ScriptedCall => ({ id, name, arguments: JSON.stringify(args) });
const EDIT_ONE = call('call_edit_1', 'edit_file', { path: 'notes.txt', old_text: 'milk', new_text: 'bread' });
const EDIT_TWO = call('call_edit_2', 'edit_file', { path: 'notes.txt', old_text: 'bread', new_text: 'cheese' });
const SHELL = call('call_shell_3', 'shell', { command: 'echo hi > out.txt' });

/** One `cw acp` child and an SDK client connected to it. */
function startAcp(env: Record<string, string>, cwd: string) {
  const child = spawnCw(['acp'], env, { cwd });
  const stdin = child.child.stdin;
  const stdout = child.child.stdout;
  if (stdin === null || stdout === null) throw new Error('no pipes');
  const stream = acp.ndJsonStream(
    Writable.toWeb(stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(stdout) as ReadableStream<Uint8Array>,
  );
  return { child, stream };
}

/** Every line cw wrote to stdout is a JSON-RPC message; updates and permission requests are valid ACP. */
function checkWire(exit: CwExit): Record<string, unknown>[] {
  const messages = exit.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(schemas['zSessionNotification']).toBeDefined();
  expect(schemas['zRequestPermissionRequest']).toBeDefined();
  for (const message of messages) {
    expect(message['jsonrpc']).toBe('2.0');
    const schema =
      message['method'] === 'session/update'
        ? schemas['zSessionNotification']
        : message['method'] === 'session/request_permission'
          ? schemas['zRequestPermissionRequest']
          : undefined;
    if (schema === undefined) continue;
    const checked = schema.safeParse(message['params']);
    expect(checked.success, `${JSON.stringify(message)}\n${String(checked.error)}`).toBe(true);
  }
  return messages;
}

describe('cw acp', () => {
  it('initialize, new session, a prompt whose calls ask (allowed once, then rejected), a cancelled prompt, then session/load replays it', async () => {
    const model = await models.model(
      'chat-completions',
      { reply: { text: 'Editing.', calls: [EDIT_ONE] } },
      { carries: [{ id: EDIT_ONE.id, includes: 'edited notes.txt' }], reply: { calls: [EDIT_TWO] } },
      { carries: [{ id: EDIT_TWO.id, includes: 'Refused' }], reply: { text: 'The note says bread.' } },
      { reply: { calls: [SHELL] } },
    );
    const ws = await models.folder('cw-acp-ws-');
    await writeFile(join(ws, 'notes.txt'), 'remember the milk\n');
    // read-only in config: the editor switches the session to ask.
    const home = await models.home(model, { workspace: ws, approval: 'read-only' });
    const env = models.envFor(home);

    const updates: acp.SessionNotification[] = [];
    const asked: acp.RequestPermissionRequest[] = [];
    // Answers, in order, for the calls that ask: allow once, reject once, then cancel the prompt.
    const answers: ('allow_once' | 'reject_once' | 'cancel')[] = ['allow_once', 'reject_once', 'cancel'];
    const client = acp
      .client({ name: 'test-editor' })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        updates.push(params);
      })
      .onRequest(acp.methods.client.session.requestPermission, async ({ params, agent }) => {
        asked.push(params);
        const answer = answers.shift();
        if (answer === 'cancel') {
          // As an editor does: cancel the turn, then answer the open request `cancelled`.
          await agent.notify(acp.methods.agent.session.cancel, { sessionId: params.sessionId });
          return { outcome: { outcome: 'cancelled' } };
        }
        return { outcome: { outcome: 'selected', optionId: answer ?? 'reject_once' } };
      });

    const first = startAcp(env, ws);
    const sessionId = await client.connectWith(first.stream, async (agent) => {
      const init = await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
      expect(init.agentCapabilities?.loadSession).toBe(true);
      expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ list: {}, resume: {}, close: {} });
      expect(init.agentInfo).toMatchObject({ name: 'cw', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });

      const created = await agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      expect(created.sessionId).toMatch(/^cw-acp-ws-[A-Za-z0-9_]*-[0-9a-f]{10}\/s1$/);
      expect(created.modes?.currentModeId).toBe('read-only');
      expect(created.modes?.availableModes.map((mode) => mode.id)).toEqual(['ask', 'read-only', 'workspace', 'never']);
      expect(created.configOptions?.[0]).toMatchObject({ id: 'route', category: 'model', currentValue: 'fault' });
      await agent.request(acp.methods.agent.session.setMode, { sessionId: created.sessionId, modeId: 'ask' });

      const done = await agent.request(acp.methods.agent.session.prompt, {
        sessionId: created.sessionId,
        prompt: [{ type: 'text', text: 'swap milk for bread' }],
      });
      expect(done.stopReason).toBe('end_turn');

      const cancelled = await agent.request(acp.methods.agent.session.prompt, {
        sessionId: created.sessionId,
        prompt: [{ type: 'text', text: 'now run a command' }],
      });
      expect(cancelled.stopReason).toBe('cancelled');
      return created.sessionId;
    });
    first.child.child.stdin?.end();
    const firstExit = await first.child.done;
    expect(firstExit.code, firstExit.stderr).toBe(0);
    checkWire(firstExit);
    expect(model.problems).toEqual([]);
    expect(model.requests).toHaveLength(4);

    // The first call ran, the second was rejected, the shell never ran.
    expect(await readFile(join(ws, 'notes.txt'), 'utf8')).toBe('remember the bread\n');
    await expect(readFile(join(ws, 'out.txt'), 'utf8')).rejects.toThrow();
    expect(asked.map((request) => request.toolCall.toolCallId)).toEqual([EDIT_ONE.id, EDIT_TWO.id, SHELL.id]);
    // The answers cw send and cw chat offer: once, this tool, this workspace's rule, reject.
    expect(asked[0]?.options.map((option) => option.optionId)).toEqual([
      'allow_once',
      'allow_always',
      'allow_always_workspace',
      'reject_once',
    ]);
    // The diff is the core's proposed change, the line around the replaced text included.
    expect(asked[0]?.toolCall).toMatchObject({
      kind: 'edit',
      locations: [{ path: join(ws, 'notes.txt') }],
      content: [
        { type: 'diff', path: join(ws, 'notes.txt'), oldText: 'remember the milk\n', newText: 'remember the bread\n' },
      ],
    });

    const kinds = updates.map((notification) => notification.update.sessionUpdate);
    expect(kinds).toContain('current_mode_update');
    // Each prompt (the cancelled one too: its first request was answered) says how much of the
    // route's window the conversation takes.
    const usage = updates.flatMap((notification) =>
      notification.update.sessionUpdate === 'usage_update' ? [notification.update] : [],
    );
    expect(usage).toHaveLength(2);
    expect(usage[0]).toMatchObject({ used: expect.any(Number), size: expect.any(Number) });
    expect(usage[0]?.used).toBeGreaterThan(100);
    const text = updates
      .flatMap((notification) =>
        notification.update.sessionUpdate === 'agent_message_chunk' && notification.update.content.type === 'text'
          ? [notification.update.content.text]
          : [],
      )
      .join('');
    expect(text).toBe('Editing.The note says bread.');
    const finished = updates.flatMap((notification) =>
      notification.update.sessionUpdate === 'tool_call_update' && notification.update.status !== 'in_progress'
        ? [[notification.update.toolCallId, notification.update.status]]
        : [],
    );
    expect(finished).toEqual([
      [EDIT_ONE.id, 'completed'],
      [EDIT_TWO.id, 'failed'],
      [SHELL.id, 'failed'],
    ]);

    // A new connection (an editor reopened) loads the saved session: its history comes back as updates first.
    const replayed: acp.SessionNotification[] = [];
    const second = startAcp(env, ws);
    const loader = acp
      .client({ name: 'test-editor' })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        replayed.push(params);
      });
    await loader.connectWith(second.stream, async (agent) => {
      await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const loaded = await agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws, mcpServers: [] });
      expect(loaded?.modes?.currentModeId).toBe('read-only');
      // The saved sessions of the workspace, as an editor's session picker asks for them.
      const listed = await agent.request(acp.methods.agent.session.list, { cwd: ws });
      expect(listed.sessions).toEqual([{ sessionId, cwd: ws, title: 's1', updatedAt: expect.any(String) }]);
      expect(schemas['zListSessionsResponse']?.safeParse(listed).success).toBe(true);
      // A mode chosen on this connection stays when the editor opens the session again (resume: no replay).
      await agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'workspace' });
      const before = replayed.length;
      const resumed = await agent.request(acp.methods.agent.session.resume, { sessionId, cwd: ws });
      expect(resumed.modes?.currentModeId).toBe('workspace');
      expect(replayed.slice(before).map((notification) => notification.update.sessionUpdate)).toEqual([]);
      // A closed session takes no more prompts.
      await agent.request(acp.methods.agent.session.close, { sessionId });
      await expect(
        agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hi' }] }),
      ).rejects.toMatchObject({ code: -32002 });
      await expect(
        agent.request(acp.methods.agent.session.load, { sessionId: `${sessionId}x`, cwd: ws, mcpServers: [] }),
      ).rejects.toMatchObject({ code: -32002 });
    });
    second.child.child.stdin?.end();
    const secondExit = await second.child.done;
    expect(secondExit.code, secondExit.stderr).toBe(0);
    checkWire(secondExit);
    expect(replayed.every((notification) => notification.sessionId === sessionId)).toBe(true);
    const history = replayed.map((notification) => notification.update);
    expect(
      history.flatMap((update) =>
        update.sessionUpdate === 'user_message_chunk' && update.content.type === 'text' ? [update.content.text] : [],
      ),
    ).toEqual(['swap milk for bread', 'now run a command']);
    expect(
      history.flatMap((update) =>
        update.sessionUpdate === 'tool_call_update' ? [[update.toolCallId, update.status]] : [],
      ),
    ).toEqual([
      [EDIT_ONE.id, 'completed'],
      [EDIT_TWO.id, 'failed'],
      [SHELL.id, 'failed'],
    ]);
  });

  it('writes nothing but the protocol to stdout; a bad cwd, an unknown session and a failed turn are protocol errors with no path in them', async () => {
    const model = await models.model('chat-completions');
    const home = await models.home(model);
    const ws = await models.folder('cw-acp-bad-');
    const { child, stream } = startAcp(models.envFor(home), ws);
    await acp.client({ name: 'test-editor' }).connectWith(stream, async (agent) => {
      await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const refused = agent.request(acp.methods.agent.session.new, { cwd: 'relative/folder', mcpServers: [] });
      await expect(refused).rejects.toMatchObject({ code: -32602 });
      await expect(
        agent.request(acp.methods.agent.session.prompt, {
          sessionId: 'nope/s1',
          prompt: [{ type: 'text', text: 'x' }],
        }),
      ).rejects.toMatchObject({ code: -32002 });
      // A turn that fails is an error carrying cw's redacted line; the fresh session keeps no messages.
      const created = await agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const failed = await agent
        .request(acp.methods.agent.session.prompt, {
          sessionId: created.sessionId,
          prompt: [{ type: 'text', text: 'fail' }],
        })
        .then(
          () => undefined,
          (error: unknown) => error as { code: number; message: string; data: { kind: string } },
        );
      expect(failed).toMatchObject({ code: -32603, data: { kind: 'http' } });
      expect(failed?.message).toMatch(/500/);
      expect(failed?.message).not.toContain('127.0.0.1');
      await expect(
        agent.request(acp.methods.agent.session.setMode, { sessionId: created.sessionId, modeId: 'yolo' }),
      ).rejects.toMatchObject({ code: -32602 });
      await expect(
        agent.request(acp.methods.agent.session.setConfigOption, {
          sessionId: created.sessionId,
          configId: 'route',
          value: 'no-such-route',
        }),
      ).rejects.toMatchObject({ code: -32602 });
      const switched = await agent.request(acp.methods.agent.session.setConfigOption, {
        sessionId: created.sessionId,
        configId: 'route',
        value: 'deepseek',
      });
      expect(switched.configOptions[0]).toMatchObject({ id: 'route', currentValue: 'deepseek' });
    });
    child.child.stdin?.end();
    const exit = await child.done;
    expect(exit.code, exit.stderr).toBe(0);
    checkWire(exit);
    expect(exit.stdout).not.toContain('relative/folder');
    expect(exit.stderr).toContain('cw: ');
    // The session was stored empty when handed out; the failed turn added nothing to it.
    expect(JSON.parse(await readFile(await sessionFile(home, 's1'), 'utf8'))).toMatchObject({ messages: [] });
  });

  it("the editor's MCP servers join that session's turns only, and reach no config file", async () => {
    const echo = { id: 'call_echo', name: 'mcp__editor__echo', arguments: '{"text":"through the editor"}' };
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [echo] } },
      { carries: [{ id: echo.id, includes: 'through the editor' }], reply: { text: 'echoed' } },
    );
    const ws = await models.folder('cw-acp-mcp-');
    const home = await models.home(model, { workspace: ws, approval: 'read-only' });
    const configBefore = await readFile(join(home, 'config.json'), 'utf8');
    const updates: acp.SessionNotification[] = [];
    const { child, stream } = startAcp(models.envFor(home), ws);
    await acp
      .client({ name: 'test-editor' })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        updates.push(params);
      })
      .connectWith(stream, async (agent) => {
        await agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: {},
        });
        const created = await agent.request(acp.methods.agent.session.new, {
          cwd: ws,
          mcpServers: [{ name: 'editor', command: process.execPath, args: [MCP_FIXTURE], env: [] }],
        });
        const done = await agent.request(acp.methods.agent.session.prompt, {
          sessionId: created.sessionId,
          prompt: [{ type: 'text', text: 'echo it' }],
        });
        expect(done.stopReason).toBe('end_turn');
      });
    child.child.stdin?.end();
    const exit = await child.done;
    expect(exit.code, exit.stderr).toBe(0);
    checkWire(exit);
    expect(model.problems).toEqual([]);
    const tools = (JSON.parse(model.requests[0]?.view.raw ?? '{}') as { tools: { function: { name: string } }[] })
      .tools;
    expect(tools.map((tool) => tool.function.name)).toContain('mcp__editor__echo');
    const result = updates.find(
      (notification) =>
        notification.update.sessionUpdate === 'tool_call_update' && notification.update.status === 'completed',
    )?.update;
    expect(JSON.stringify(result)).toContain('through the editor');
    expect(await readFile(join(home, 'config.json'), 'utf8')).toBe(configBefore);
  });

  it('sends notice updates only to a client that advertised session.notices', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'one' } }, { reply: { text: 'two' } });
    const ws = await models.folder('cw-acp-notice-');
    const home = await models.home(model, { workspace: ws });
    // An editor's server that cannot start is left out of the turn with a warning notice.
    const broken: acp.McpServer = { name: 'broken', command: join(ws, 'no-such-server'), args: [], env: [] };
    const kindsSeen = async (clientCapabilities: acp.ClientCapabilities): Promise<string[]> => {
      const updates: acp.SessionNotification[] = [];
      const { child, stream } = startAcp(models.envFor(home), ws);
      await acp
        .client({ name: 'test-editor' })
        .onNotification(acp.methods.client.session.update, ({ params }) => {
          updates.push(params);
        })
        .connectWith(stream, async (agent) => {
          await agent.request(acp.methods.agent.initialize, {
            protocolVersion: acp.PROTOCOL_VERSION,
            clientCapabilities,
          });
          const created = await agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [broken] });
          const done = await agent.request(acp.methods.agent.session.prompt, {
            sessionId: created.sessionId,
            prompt: [{ type: 'text', text: 'hi' }],
          });
          expect(done.stopReason).toBe('end_turn');
        });
      child.child.stdin?.end();
      const exit = await child.done;
      expect(exit.code, exit.stderr).toBe(0);
      checkWire(exit);
      return updates.map((notification) => notification.update.sessionUpdate);
    };
    const advertised = await kindsSeen({ session: { notices: {} } });
    expect(advertised).toContain('notice');
    expect(advertised).toContain('agent_message_chunk');
    const silent = await kindsSeen({});
    expect(silent).not.toContain('notice');
    expect(silent).toContain('agent_message_chunk');
    expect(model.problems).toEqual([]);
  });

  it('a session id from session/new is resumable by the next cw acp before any prompt, and never handed out again', async () => {
    const model = await models.model('chat-completions', { reply: { text: 'hello' } });
    const ws = await models.folder('cw-acp-ids-');
    const home = await models.home(model, { workspace: ws });
    const env = models.envFor(home);
    const connect = async <T>(work: (agent: acp.ClientContext) => Promise<T>): Promise<T> => {
      const { child, stream } = startAcp(env, ws);
      const result = await acp.client({ name: 'test-editor' }).connectWith(stream, async (agent) => {
        await agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: {},
        });
        return work(agent);
      });
      child.child.stdin?.end();
      const exit = await child.done;
      expect(exit.code, exit.stderr).toBe(0);
      checkWire(exit);
      return result;
    };
    const first = await connect(
      async (agent) => (await agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] })).sessionId,
    );
    await connect(async (agent) => {
      const resumed = await agent.request(acp.methods.agent.session.resume, { sessionId: first, cwd: ws });
      expect(resumed.modes?.currentModeId).toBeDefined();
      const loaded = await agent.request(acp.methods.agent.session.load, { sessionId: first, cwd: ws, mcpServers: [] });
      expect(loaded?.modes?.currentModeId).toBeDefined();
      const second = await agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      expect(second.sessionId).not.toBe(first);
      const done = await agent.request(acp.methods.agent.session.prompt, {
        sessionId: first,
        prompt: [{ type: 'text', text: 'hi' }],
      });
      expect(done.stopReason).toBe('end_turn');
      // A name never handed out is still no session.
      await expect(
        agent.request(acp.methods.agent.session.resume, { sessionId: `${first}x`, cwd: ws }),
      ).rejects.toMatchObject({ code: -32002 });
    });
    expect(model.problems).toEqual([]);
  });

  it('loads the protocol SDK in cw acp only: no other command module imports it', async () => {
    const dist = join(REPO_ROOT, 'cli', 'dist');
    const command = await readFile(join(dist, 'commands', 'acp.js'), 'utf8');
    // The command reaches the server (and the SDK) through a dynamic import only.
    expect(command).not.toContain('@agentclientprotocol');
    expect(command).toContain("import('../acp/serve-acp.js')");
    for (const file of ['commands/send.js', 'commands/preview-request.js', 'entry/fast-preview.js', 'agent.js'])
      expect(await readFile(join(dist, file), 'utf8')).not.toContain('@agentclientprotocol');
  });
});
