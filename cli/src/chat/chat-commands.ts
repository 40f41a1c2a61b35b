import type { CwSnapshot, SnapshotOverrides } from '@cw/core';
import { errorLine } from '../render/error-line.js';
import { previewTable } from '../run/run-preview.js';
import { REASONING, type Reasoning } from '../flags/turn-choices.js';
import type { ChatState } from './chat-state.js';
import { type SlashCommandName, slashHelp } from './slash-commands.js';

// What each slash command does. Each one either changes the session's choices for the next turn
// (after checking them: a bad value is one line saying what to fix, and nothing changes) or shows
// something, reading through the same core functions the cw commands use, on this session.

/** What the session does after a command. */
export type CommandOutcome = 'continue' | 'exit';

type Core = typeof import('@cw/core');

/** Carries out one parsed slash command. */
export async function runSlashCommand(
  state: ChatState,
  name: SlashCommandName,
  rest: string,
  core: Core,
): Promise<CommandOutcome> {
  const say = (text: string): void => state.view.line(text);
  const fail = (text: string): void => say(`cw: ${core.terminalSafe(text)}`);
  try {
    switch (name) {
      case 'help':
        say(slashHelp().trimEnd());
        return 'continue';
      case 'exit':
        return 'exit';
      case 'preview': {
        state.view.line((await previewTable(core, await previewNext(state, rest))).trimEnd());
        return 'continue';
      }
      case 'route': {
        if (rest === '') return showChoices(state, core, say);
        const snapshot = await loadOrNull(state, fail);
        if (snapshot === null) return 'continue';
        if (!routeIds(snapshot).includes(rest)) {
          fail(
            `unknown route ${core.safeIdentifier(rest)}: /route takes one of the ids cw routes lists (Tab completes them)`,
          );
          return 'continue';
        }
        // A model belongs to its route: choosing another route drops the model chosen before.
        const { model: _dropped, ...others } = state.overrides;
        await choose(state, { ...others, route: rest }, say, fail, `route ${core.safeIdentifier(rest)}`);
        return 'continue';
      }
      case 'model':
        if (rest === '' || /\s/.test(rest)) {
          fail('/model takes one model id, or route/model');
          return 'continue';
        }
        await choose(state, { ...state.overrides, model: rest }, say, fail, `model ${core.safeIdentifier(rest)}`);
        return 'continue';
      case 'reasoning':
        if (!(REASONING as readonly string[]).includes(rest)) {
          fail(`/reasoning takes one of ${REASONING.join(', ')}`);
          return 'continue';
        }
        await choose(state, { ...state.overrides, reasoning: rest as Reasoning }, say, fail, `reasoning ${rest}`);
        return 'continue';
      case 'approval':
        if (!(core.APPROVAL_POSTURES as readonly string[]).includes(rest)) {
          fail(`/approval takes one of ${core.APPROVAL_POSTURES.join(', ')}`);
          return 'continue';
        }
        state.approval = rest as ChatState['approval'] & string;
        say(`approval ${rest} for the next turns`);
        return 'continue';
      case 'new': {
        const { snapshot } = await state.agent.load({ ...state.overrides, session: { kind: 'new' } });
        state.overrides = { ...state.overrides, session: { kind: 'named', name: snapshot.session.name } };
        say(`new session ${core.safeIdentifier(snapshot.session.name)}`);
        return 'continue';
      }
      case 'resume': {
        if (rest !== '' && !core.SESSION_NAME_PATTERN.test(rest)) {
          fail('/resume takes a session name of 1 to 64 letters, digits, - or _ (/sessions lists them)');
          return 'continue';
        }
        // Loading a name that is not stored would open it empty: resuming needs a session that exists.
        if (rest !== '' && !(await isStored(state, core, rest))) {
          fail(`no session named ${core.safeIdentifier(rest)} in this workspace: /sessions lists them`);
          return 'continue';
        }
        const selection = rest === '' ? ({ kind: 'continue' } as const) : ({ kind: 'named', name: rest } as const);
        const { snapshot } = await state.agent.load({ ...state.overrides, session: selection }, { repair: true });
        state.overrides = { ...state.overrides, session: { kind: 'named', name: snapshot.session.name } };
        const turns = snapshot.session.messages.filter((message) => message.role === 'user').length;
        say(
          `session ${core.safeIdentifier(snapshot.session.name)} (${snapshot.session.messages.length} messages, ${turns} from you)`,
        );
        return 'continue';
      }
      case 'sessions':
        await showSessions(state, core, say);
        return 'continue';
      case 'compact': {
        const snapshot = await loadOrNull(state, fail);
        if (snapshot === null) return 'continue';
        state.view.spin('compacting');
        const done = await core.compactSession(snapshot, {
          home: state.agent.home,
          env: process.env,
          entrypoint: 'streaming',
        });
        say(
          done === null
            ? 'nothing to compact: the session has no turns before the latest ones it keeps'
            : `compacted: ${done.summarised} earlier messages replaced by a summary, ${done.kept} kept`,
        );
        return 'continue';
      }
      case 'goal':
        await goal(state, core, rest, say);
        return 'continue';
      case 'mcp':
        await showMcp(state, core, say);
        return 'continue';
      case 'skills':
        await skills(state, core, rest, say, fail);
        return 'continue';
      default: {
        const never: never = name;
        return never;
      }
    }
  } catch (error) {
    state.view.stopSpinner();
    fail((await errorLine(error)).text);
    return 'continue';
  }
}

/** Loads the session as the next turn would see it; null (said) when it cannot be read. */
async function loadOrNull(state: ChatState, fail: (text: string) => void): Promise<CwSnapshot | null> {
  try {
    return (await state.agent.load(state.overrides)).snapshot;
  } catch (error) {
    fail((await errorLine(error)).text);
    return null;
  }
}

/**
 * `/preview [prompt]`: the next turn for the prompt; alone, the turn a stopped loop continues with,
 * or else the next turn with an empty prompt, so route and tools show exactly (docs/cli.md).
 */
async function previewNext(
  state: ChatState,
  rest: string,
): Promise<Awaited<ReturnType<ChatState['agent']['preview']>>> {
  const options = { overrides: state.overrides };
  if (rest !== '') return state.agent.preview(rest, options);
  const turn = await state.agent.preview(undefined, options);
  const route = turn.manifest.route;
  const noPrompt = 'unavailable' in route && route.unavailable.reason === 'no-hypothetical-prompt-supplied';
  return noPrompt ? state.agent.preview('', options) : turn;
}

/** Whether this workspace stores a session by that name (an unreadable one counts: resuming moves it aside). */
async function isStored(state: ChatState, core: Core, name: string): Promise<boolean> {
  const { snapshot } = await state.agent.load(state.overrides);
  const here = snapshot.session.key.includes('/') ? (snapshot.session.key.split('/')[0] ?? null) : null;
  const rows = await core.listSessions(state.agent.home, here);
  return rows.some((row) => row.name === name && row.workspace === here);
}

/** Every route id a turn could use: the plugins' rows, the user's routes, and `auto`. */
export function routeIds(snapshot: CwSnapshot): string[] {
  return [
    ...new Set([...snapshot.registry.rows.map((row) => row.route_id), ...Object.keys(snapshot.config.routes), 'auto']),
  ].sort();
}

/** Takes new choices when the next turn can be planned with them; otherwise says why and keeps the old ones. */
async function choose(
  state: ChatState,
  next: SnapshotOverrides,
  say: (text: string) => void,
  fail: (text: string) => void,
  what: string,
): Promise<void> {
  try {
    await state.agent.load(next);
  } catch (error) {
    fail((await errorLine(error)).text);
    return;
  }
  state.overrides = next;
  say(`${what} for the next turns`);
}

/** `/route` alone: the choices in force. */
async function showChoices(state: ChatState, core: Core, say: (text: string) => void): Promise<CommandOutcome> {
  // A route is planned for a prompt; any plain one plans the route the next turn takes (auto routing,
  // which classifies the prompt, then says it is not resolved yet).
  const turn = await state.agent.preview('hello', { overrides: state.overrides });
  const section = turn.manifest.route;
  const route = 'exact' in section ? section.exact : null;
  say(
    'unavailable' in section
      ? `route: not resolved (${section.unavailable.reason})`
      : `route ${core.safeIdentifier(route?.route_id ?? '')} · model ${core.safeIdentifier(route?.wire_model ?? '')} · approval ${state.approval ?? turn.snapshot.config.approval}`,
  );
  return 'continue';
}

async function showSessions(state: ChatState, core: Core, say: (text: string) => void): Promise<void> {
  const { snapshot } = await state.agent.load(state.overrides);
  const here = snapshot.session.key.includes('/') ? (snapshot.session.key.split('/')[0] ?? null) : null;
  const rows = await core.listSessions(state.agent.home, here);
  if (rows.length === 0) {
    say('no sessions stored in this workspace yet: the first turn stores this one');
    return;
  }
  for (const row of rows)
    say(
      `${row.name === snapshot.session.name ? '*' : ' '} ${core.safeIdentifier(row.name).padEnd(16)} ${row.corrupt ? 'unreadable' : `${row.turns} turns`}  ${row.lastUsed.replace('T', ' ').slice(0, 16)}  ${row.route === null ? '-' : core.safeIdentifier(row.route)}`,
    );
}

async function goal(state: ChatState, core: Core, rest: string, say: (text: string) => void): Promise<void> {
  const { snapshot } = await state.agent.load(state.overrides);
  const { key, name } = snapshot.session;
  const home = state.agent.home;
  if (rest === 'clear') {
    const removed = await core.clearGoal(home, key);
    say(removed ? `cleared the goal of session ${core.safeIdentifier(name)}` : 'no goal was set');
    return;
  }
  if (rest !== '') {
    if (rest.length > core.MAX_GOAL_TEXT)
      throw new core.GoalStateError(`the goal text must be 1 to ${core.MAX_GOAL_TEXT} characters`);
    await core.setGoal(home, key, { text: rest });
    say(`goal set for session ${core.safeIdentifier(name)}`);
    return;
  }
  const current = await core.readGoal(home, key);
  if (current === null) {
    say(`no goal is set for session ${core.safeIdentifier(name)}: /goal <text> sets one`);
    return;
  }
  const view = core.goalView(current);
  const budget =
    view.token_budget === null
      ? `no budget (${view.tokens_used} tokens used)`
      : `${view.token_budget} tokens (${view.tokens_used} used, ${view.tokens_left} left)`;
  say(`goal: ${core.terminalSafe(view.text)}\nbudget: ${budget}${view.state === 'active' ? '' : ' — exhausted'}`);
}

async function showMcp(state: ChatState, core: Core, say: (text: string) => void): Promise<void> {
  const { snapshot } = await state.agent.load(state.overrides);
  const servers = snapshot.config.mcpServers;
  if (Object.keys(servers).length === 0) {
    say('no MCP servers configured: cw mcp add adds one (docs/mcp.md)');
    return;
  }
  let stored = core.mcp.emptyMcpSnapshot();
  try {
    stored = await core.mcp.readMcpSnapshot(state.agent.home);
  } catch {
    // An unreadable snapshot reads as none: every server then shows "no snapshot".
  }
  for (const { name, state: running } of core.mcpSessionStates(state.scope, servers)) {
    const server = servers[name];
    if (server === undefined) continue;
    const status = core.mcp.mcpServerSnapshotStatus(name, server, stored);
    const tools = Object.hasOwn(stored.servers, name) ? (stored.servers[name]?.tools.length ?? 0) : 0;
    const snapshotWords =
      status === 'fresh'
        ? `${tools} tools in the snapshot`
        : status === 'stale'
          ? 'snapshot stale: cw mcp refresh'
          : 'no snapshot: cw mcp refresh';
    say(
      `${core.safeIdentifier(name).padEnd(16)} ${server.disabled ? 'disabled' : running.padEnd(11)}  ${core.mcp.mcpTransportOf(server)}  ${snapshotWords}`,
    );
  }
  say('servers start on the first call of one of their tools and stop when the session ends');
}

async function skills(
  state: ChatState,
  core: Core,
  rest: string,
  say: (text: string) => void,
  fail: (text: string) => void,
): Promise<void> {
  const { snapshot } = await state.agent.load(state.overrides);
  const home = state.agent.home;
  const workspace = await core.workspaceRoot(snapshot.config.workspace);
  const use = /^use\s+(\S+)$/u.exec(rest);
  if (rest !== '' && use === null) {
    fail('/skills takes nothing, or use <name>');
    return;
  }
  if (use !== null) {
    const wanted = use[1] ?? '';
    const found = core.SKILL_NAME_PATTERN.test(wanted) ? await core.findSkill(home, workspace, wanted) : null;
    if (found === null || found.status !== 'ok') {
      fail('no usable skill by that name: /skills lists them');
      return;
    }
    await core.setPendingSkill(home, snapshot.session.key, wanted);
    say(`skill ${wanted} (${found.source}) wraps the next prompt`);
    return;
  }
  const found = (await core.discoverSkills(home, workspace)).map(core.skillView);
  if (found.length === 0) {
    say('no skills found: add a folder with a SKILL.md under $CW_HOME/skills or .cw/skills');
    return;
  }
  const width = Math.max(...found.map((skill) => skill.name.length));
  for (const skill of found)
    say(
      `  ${skill.name.padEnd(width)}  ${skill.source.padEnd(9)}  ${core.terminalSafe(skill.description ?? `broken: ${skill.problem ?? ''}`)}`,
    );
}
