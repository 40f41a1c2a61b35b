import * as core from '@cw/core';
import { describe, expect, it } from 'vitest';
import {
  builtinPluginDescriptors,
  DEFAULT_ROUTE_ID,
  REPO_ROOT,
  useCwHomes,
  writeSession,
} from '../../../test/support/cw-fixture.js';
import { previewTable } from '../run/run-preview.js';
import { runSlashCommand } from './chat-commands.js';
import type { ChatState } from './chat-state.js';
import { TurnView } from './turn-view.js';

const homes = useCwHomes();

/** A session's state over a fresh home in this workspace, and what its commands printed. */
async function session(name: string): Promise<{ state: ChatState; out: () => string }> {
  const home = await homes();
  const agent = await core.createAgent({
    home,
    cwd: REPO_ROOT,
    env: { ...process.env, CW_HOME: home },
    plugins: await builtinPluginDescriptors(),
    defaultRouteId: DEFAULT_ROUTE_ID,
  });
  let text = '';
  const state: ChatState = {
    agent,
    registry: agent.registry,
    scope: core.createSessionScope(),
    view: new TurnView({ write: (chunk) => (text += chunk), color: false }, core),
    overrides: { session: { kind: 'named', name } },
    approval: undefined,
    approvals: new core.ApprovalStore(),
    ask: async () => null,
  };
  return { state, out: () => text };
}

describe('/resume', () => {
  it('refuses a name no stored session has, in one line, and stays in the current session', async () => {
    const { state, out } = await session('here');
    await writeSession(state.agent.home, 'kept', [{ role: 'user', content: 'hi' }]);
    expect(await runSlashCommand(state, 'resume', 'nosuch', core)).toBe('continue');
    expect(out()).toBe('cw: no session named nosuch in this workspace: /sessions lists them\n');
    expect(state.overrides.session).toEqual({ kind: 'named', name: 'here' });
    expect(await core.listSessions(state.agent.home, null)).toHaveLength(1);
  });

  it('goes to a stored session', async () => {
    const { state, out } = await session('here');
    await writeSession(state.agent.home, 'kept', [{ role: 'user', content: 'hi' }]);
    await runSlashCommand(state, 'resume', 'kept', core);
    expect(out()).toBe('session kept (1 messages, 1 from you)\n');
    expect(state.overrides.session).toEqual({ kind: 'named', name: 'kept' });
  });
});

describe('/preview alone', () => {
  it('previews the next turn with an empty prompt: route, tools and body are exact', async () => {
    const { state, out } = await session('here');
    await runSlashCommand(state, 'preview', '', core);
    const empty = await state.agent.preview('', { overrides: state.overrides });
    const { route, tools, body } = empty.manifest;
    expect('exact' in route && route.exact.route_id).toBe(DEFAULT_ROUTE_ID);
    expect('exact' in tools && 'exact' in body).toBe(true);
    expect(out()).toBe(`${(await previewTable(core, empty)).trimEnd()}\n`);
    expect(out()).not.toContain('no hypothetical prompt supplied');
  });

  it('previews the continuation when the session stopped between steps, as cw preview-request does', async () => {
    const { state, out } = await session('here');
    const call = { id: 'c1', name: 'read_file', arguments: '{"path":"README.md"}' };
    await writeSession(state.agent.home, 'here', [
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'tool', tool_call_id: 'c1', name: 'read_file', content: 'text', status: 'ok' },
    ]);
    await runSlashCommand(state, 'preview', '', core);
    const next = await state.agent.preview(undefined, { overrides: state.overrides });
    const empty = await state.agent.preview('', { overrides: state.overrides });
    expect('exact' in next.manifest.body).toBe(true);
    expect(out()).toBe(`${(await previewTable(core, next)).trimEnd()}\n`);
    expect(out()).not.toBe(`${(await previewTable(core, empty)).trimEnd()}\n`);
  });
});
