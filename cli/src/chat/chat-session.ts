import { createInterface, type Interface } from 'node:readline';
import type { Agent, AskedCall, ApprovalPosture, AskAnswer, CwSnapshot, PluginRegistry, SentTurn } from '@cw/core';
import { readAnswer } from '../render/approval-answers.js';
import { fileDiffLines } from '../render/file-diff-lines.js';
import { stopLine } from '../render/stop-line.js';
import { noticeText } from '../render/notice-text.js';
import { errorLine } from '../render/error-line.js';
import { useColor } from '../run/run-preview.js';
import type { TurnChoices } from '../flags/turn-choices.js';
import { answerOffer, approvalQuestion } from './approval-question.js';
import { completeLine } from './chat-completer.js';
import { type CommandOutcome, routeIds, runSlashCommand } from './chat-commands.js';
import type { ChatState } from './chat-state.js';
import { MAX_HISTORY_ENTRIES, historyFile, readHistory, withEntry, writeHistory } from './prompt-history.js';
import { parseSlashCommand } from './slash-commands.js';
import { TurnView, usageLine } from './turn-view.js';
import { echoSwitch, queuedNotice, recallLater } from './typed-ahead.js';

// The interactive session (docs/cli.md, "cw chat"): a host of the Agent API like cw send, but one
// process for many turns, so MCP servers stay up between them (the session scope) and the person
// answers approvals, cancels a step and changes route or model without leaving. node:readline gives
// line editing, history and Tab completion with nothing to install (docs/cli.md says why).

const PROMPT = '› ';

/** What the session starts from: the agent, the command line's choices, and the approval posture. */
export interface ChatOptions {
  readonly agent: Agent;
  readonly registry: PluginRegistry;
  readonly choices: TurnChoices;
  readonly approval: ApprovalPosture | undefined;
  /** `cw "<prompt>"`: sent as the session's first turn. */
  readonly firstPrompt?: string;
  /** Opened with -c or -r: the last exchanges are shown before the prompt. */
  readonly resumed?: boolean;
}

/** Runs the session until /exit, Ctrl-D or a second Ctrl-C at the prompt; MCP servers are closed on the way out. */
export async function runChatSession(options: ChatOptions): Promise<void> {
  const core = await import('@cw/core');
  const color = useColor();
  const { terminalWidth } = await import('../render/load-markdown.js');
  const view = new TurnView(
    { write: (text) => process.stdout.write(text), color, width: () => terminalWidth(process.stdout) },
    core,
  );
  // Replies are rendered as Markdown on a colour terminal; the libraries load while the person types.
  const markdown = color
    ? import('../render/load-markdown.js')
        .then(({ loadMarkdown }) => loadMarkdown(core.terminalSafeMultiline))
        .then((renderer) => view.renderMarkdown(renderer))
        .catch(() => undefined)
    : Promise.resolve();
  const home = options.agent.home;
  const file = historyFile(home);
  let history = await readHistory(file);

  const loaded = await options.agent.load(options.choices, { repair: true });
  if (loaded.movedAside !== null)
    view.line(
      `cw: session ${core.safeIdentifier(loaded.movedAside.name)} was not readable; moved it aside to ${core.terminalSafe(loaded.movedAside.file)} and started it fresh`,
    );
  const workspace = await core.workspaceRoot(loaded.snapshot.config.workspace);
  let routes = routeIds(loaded.snapshot);

  let waiter: ((line: string | null) => void) | null = null;
  let running: AbortController | null = null;
  let closed = false;
  let armed = false;
  const lines: Interface = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
    // readline wants the newest first.
    history: [...history].reverse(),
    historySize: MAX_HISTORY_ENTRIES,
    removeHistoryDuplicates: true,
    completer: (line: string, callback: (error: Error | null, result: [string[], string]) => void) => {
      completeLine(line, { workspace, routes: () => routes }).then(
        (result) => callback(null, result),
        () => callback(null, [[], line]),
      );
    },
  });
  // Lines typed while nothing asks (a turn runs, /compact runs, or a command's output is on the
  // screen before the next prompt shows): the next prompts, in order, each said as it is queued and
  // never echoed into the reply (typed-ahead.ts). Only the prompt takes them, and an approval
  // question is always answered as it is asked.
  const echo = echoSwitch(lines, process.stdout);
  const typedAhead: string[] = [];
  lines.on('line', (line) => {
    armed = false;
    const wake = waiter;
    waiter = null;
    if (wake !== null) {
      echo(false);
      wake(line);
      return;
    }
    if (line.trim() === '') return;
    typedAhead.push(line);
    view.aside(queuedNotice(line, core.terminalSafe, color));
  });
  lines.on('close', () => {
    closed = true;
    running?.abort();
    const wake = waiter;
    waiter = null;
    wake?.(null);
  });
  // Cancels the running step: answered calls are kept, the rest answered "not executed".
  const interruptTurn = (): void => {
    // Cancels the running step: answered calls are kept, the rest answered "not executed".
    running?.abort();
    // The queue is cancelled with the turn; its lines stay in the history, for Up to bring back.
    if (typedAhead.length > 0) {
      recallLater(lines, typedAhead.splice(0));
      view.aside('cw: the queued lines were not sent; Up brings them back');
    }
    const wake = waiter;
    waiter = null;
    if (wake !== null) {
      echo(false);
      // An open question is ended as if answered by an empty line, so readline's next prompt starts
      // below it rather than redrawing over the lines that follow (the empty line is ignored).
      lines.write(null, { ctrl: true, name: 'u' });
      lines.write('\n');
    }
    wake?.('n');
  };
  // Esc during a reply or at its approval question does what one Ctrl-C does (docs/cli.md).
  process.stdin.on('keypress', (_text: string | undefined, key: { readonly name?: string } | undefined) => {
    if (key?.name === 'escape' && running !== null) interruptTurn();
  });
  lines.on('SIGINT', () => {
    if (running !== null) {
      interruptTurn();
      return;
    }
    if (lines.line !== '') {
      // Ctrl-C on a typed line clears it, as a shell does.
      lines.write(null, { ctrl: true, name: 'u' });
      armed = false;
      return;
    }
    if (armed) {
      lines.close();
      return;
    }
    armed = true;
    process.stdout.write('\n(Ctrl-C again or Ctrl-D to leave)\n');
    lines.prompt();
  });
  const ask = (question: string): Promise<string | null> => {
    if (closed) return Promise.resolve(null);
    echo(true);
    lines.setPrompt(question);
    // Keeps the cursor where typing left it: keys pressed before the prompt showed (Tab included) go on
    // from the end of what was typed, not from its start.
    lines.prompt(true);
    return new Promise((resolve) => {
      waiter = resolve;
    });
  };

  const state: ChatState = {
    agent: options.agent,
    registry: options.registry,
    scope: core.createSessionScope(),
    view,
    // From here on the session is named: a fresh one (-n) keeps the name it was given.
    overrides: { ...options.choices, session: { kind: 'named', name: loaded.snapshot.session.name } },
    approval: options.approval,
    approvals: new core.ApprovalStore(),
    ask,
  };
  view.line(
    `cw · session ${core.safeIdentifier(loaded.snapshot.session.name)} · approval ${state.approval ?? loaded.snapshot.config.approval} · /help for commands, Ctrl-D to leave`,
  );
  if (options.resumed) {
    const { recentExchanges } = await import('../render/recent-exchanges.js');
    for (const line of recentExchanges(loaded.snapshot.session.messages, core.terminalSafe, process.stdout.columns))
      view.line(line);
  }
  // The first prompt (`cw "…"`) goes first in the queue, which shows it as if typed at the prompt.
  if (options.firstPrompt !== undefined) typedAhead.unshift(options.firstPrompt);

  try {
    for (;;) {
      const queued = typedAhead.shift();
      // A queued line is shown as if typed at the prompt, so the transcript reads in order.
      if (queued !== undefined) view.line(`${PROMPT}${core.terminalSafe(queued)}`);
      const line = queued ?? (await ask(PROMPT));
      if (line === null) break;
      if (line.trim() === '') continue;
      history = withEntry(history, line);
      await writeHistory(file, history).catch(() => undefined);
      const slash = parseSlashCommand(line);
      let outcome: CommandOutcome = 'continue';
      if (slash?.kind === 'error') view.line(`cw: ${core.terminalSafe(slash.text)}`);
      else if (slash?.kind === 'command') outcome = await runSlashCommand(state, slash.name, slash.rest, core);
      else {
        const prompt =
          slash?.kind === 'mcp-prompt'
            ? await serverPromptText(state, slash, core)
            : line.startsWith('//')
              ? line.slice(1)
              : line;
        if (prompt === null) continue;
        const controller = new AbortController();
        running = controller;
        await markdown;
        try {
          await runTurn(state, prompt, controller.signal, core);
        } finally {
          running = null;
        }
      }
      if (outcome === 'exit' || closed) break;
      // A /route or /new may change what completes.
      routes = await state.agent
        .load(state.overrides)
        .then(({ snapshot }) => routeIds(snapshot))
        .catch(() => routes);
    }
  } finally {
    view.finish();
    if (!closed) lines.close();
    // Every MCP server the session started is stopped before the process leaves.
    await state.scope.close();
    process.stdin.unref?.();
  }
}

/**
 * The text an MCP server's prompt makes, as `cw send --mcp-prompt` runs it (arguments `name=value`),
 * or null after one line saying what to fix.
 */
async function serverPromptText(
  state: ChatState,
  typed: { readonly ref: string; readonly args: readonly string[] },
  core: typeof import('@cw/core'),
): Promise<string | null> {
  try {
    const { mcpPromptChoice } = await import('../flags/mcp-prompt-flags.js');
    const choice = mcpPromptChoice({ 'mcp-prompt': typed.ref, arg: [...typed.args] }, undefined, '');
    if (choice === null) return null;
    const { snapshot } = await state.agent.load(state.overrides);
    state.view.spin('running the prompt');
    return await core.mcp.resolveMcpPrompt({
      home: state.agent.home,
      servers: snapshot.config.mcpServers,
      config: snapshot.config,
      ref: choice.ref,
      args: choice.args,
      ...(snapshot.workingContext ? { workspace: snapshot.workingContext.workspace } : {}),
    });
  } catch (error) {
    const { errorLine } = await import('../render/error-line.js');
    // A usage error carries the send's usage line after its reason; the session shows the reason.
    const text = (await errorLine(error)).text.split('\n')[0] ?? '';
    state.view.line(`cw: ${core.terminalSafe(text.replace(/`--arg` (\d+)/u, 'argument $1'))}`);
    return null;
  } finally {
    state.view.stopSpinner();
  }
}

/** One turn: sends the prompt, shows its events, answers approvals inline, and reports usage. */
async function runTurn(
  state: ChatState,
  prompt: string,
  signal: AbortSignal,
  core: typeof import('@cw/core'),
): Promise<void> {
  const { view } = state;
  let snapshot: CwSnapshot;
  try {
    snapshot = (await state.agent.load(state.overrides, { repair: true })).snapshot;
  } catch (error) {
    view.line(`cw: ${(await errorLine(error)).text}`);
    return;
  }
  const posture = state.approvals.postureFor(snapshot.config.approval, {
    ...(state.approval === undefined ? {} : { approval: state.approval }),
  });
  const color = useColor();
  const onApproval = async (call: AskedCall): Promise<AskAnswer> => {
    view.stopSpinner();
    view.finish();
    // An edit is shown as the diff it would make before it is answered.
    if (call.change !== undefined)
      for (const line of fileDiffLines(call.change, color, core.terminalSafe)) view.line(line);
    const offer = answerOffer(call, core.safeIdentifier);
    for (;;) {
      const typed = await state.ask(approvalQuestion(call, core.terminalSafe));
      if (typed === null || signal.aborted) return 'no';
      const answer = readAnswer(typed, offer);
      if (answer === null) continue;
      if (answer !== 'no' && typeof answer !== 'object') view.spin(call.name);
      return answer;
    }
  };
  const run = state.agent.run(prompt, {
    snapshot,
    signal,
    scope: state.scope,
    approvals: state.approvals,
    ...(state.approval === undefined ? {} : { approval: state.approval }),
    ...(posture === 'ask' ? { onApproval } : {}),
  });
  let lastUsage: import('@cw/core/plugin').TurnUsage | null = null;
  for await (const event of run) {
    switch (event.type) {
      case 'notice':
        view.line(`cw: ${core.terminalSafe(noticeText(event.notice, state.agent.registry.turn.notices))}`);
        break;
      case 'projection-warning': {
        const { projectionWarningLine } = await import('../render/render-projection-warning.js');
        view.line(projectionWarningLine(event.warning, core.terminalSafe).trimEnd());
        break;
      }
      case 'step-finish':
        if (event.usage !== null) lastUsage = event.usage;
        view.show(event);
        break;
      case 'turn-finish':
        view.finish();
        view.line(usageLine(event.usage, lastUsage, event.manifest, event));
        break;
      default:
        view.show(event);
        break;
    }
  }
  let sent: SentTurn;
  try {
    sent = await run.result;
  } catch (error) {
    view.finish();
    if ((error as { kind?: unknown }).kind === 'interrupted') view.line('cw: cancelled; the session is as it was');
    else view.line(`cw: ${(await errorLine(error)).text}`);
    // A first prompt with no key: what else can be done, as cw send says it.
    const { hintsFor } = await import('../setup/first-run-hints.js');
    for (const hint of hintsFor(error)) view.line(`cw: ${hint}`);
    return;
  }
  const stopped = stopLine(sent.stopped, sent.steps.length, sent.reply.toolCalls.length, 'chat');
  if (stopped !== null) view.line(`cw: ${stopped}`);
}
