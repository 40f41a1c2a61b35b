import { noticeText } from '../render/notice-text.js';
import { wordsBeforePrompt } from '../flags/prompt-words.js';
import type { RuntimeSource } from '../entry/load-runtime.js';
import { outputFormatOfWords } from '../flags/output-format.js';
import { type Exiter, reportError } from '../render/report-error.js';
import type { TurnChoices } from '../flags/turn-choices.js';

// Everything `cw send` does once a parser has read its words. The oclif command and the oclif-free
// entry (fast-send.ts) differ only in how they parse flags and find plugins; both end here, so what
// either prints, how it fails and what it exits with is one piece of code (docs/performance.md).

// What a shell exits with after Ctrl-C, so scripts can tell an interrupted run from a failure.
const INTERRUPTED_EXIT = 130;

/** The flags of `cw send` as a flag parser reads them: a flag not given is absent. */
export interface SendFlags {
  readonly json?: boolean;
  readonly 'output-format'?: string;
  readonly blocking?: boolean;
  readonly 'no-tool-runs'?: boolean;
  readonly 'no-tools'?: boolean;
  readonly approval?: string;
  readonly sandbox?: 'off' | 'on' | 'required';
  readonly 'mcp-prompt'?: string;
  readonly arg?: readonly string[];
  /** The rest, read by name where the flag table says what they are. */
  readonly [flag: string]: unknown;
}

/** A send command line as a flag parser reads it. */
export interface SendLine {
  readonly flags: SendFlags;
  readonly prompt: string | undefined;
  readonly choices: TurnChoices;
}

/**
 * Runs a send: `parse` reads the words (a UsageError it throws is reported like any failure),
 * `source` names the plugins and default route. `argv` is the words after the command name.
 */
export async function runSend(
  argv: readonly string[],
  parse: () => Promise<SendLine>,
  source: () => RuntimeSource,
  exiter: Exiter,
): Promise<void> {
  // Set before parsing, so even a usage error is printed as the script asked (a JSON document or line).
  let format = outputFormatOfWords(wordsBeforePrompt(argv));
  let streamed = false;
  let midLine = false;
  // The reply text of the step under way, when it is rendered as Markdown (render/load-markdown.ts).
  let reply: import('../render/markdown-stream.js').MarkdownStream | undefined;
  const endReply = (): void => {
    reply?.end();
    reply = undefined;
  };
  let interrupts = 0;
  // What the turn has done so far, so a Ctrl-C in the middle of a request still ends the stream with `result`.
  let turn:
    | {
        session: string;
        session_id: string;
        usages: Extract<import('@cw/core').AgentEvent, { type: 'step-finish' }>['usage'][];
        costs: import('@cw/core').Cost[];
      }
    | undefined;
  const controller = new AbortController();
  // The first Ctrl-C stops the loop cleanly (the session stays valid); a second one leaves at once.
  const onInterrupt = (): void => {
    interrupts += 1;
    if (interrupts > 1) process.exit(INTERRUPTED_EXIT);
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  const { Spinner } = await import('../render/spinner.js');
  const spinner = new Spinner();
  try {
    const { SEND_USAGE, promptRequired } = await import('../flags/usage-lines.js');
    const { sendLoopValues } = await import('../flags/send-loop-values.js');
    const line = await parse();
    const { mcpPromptChoice } = await import('../flags/mcp-prompt-flags.js');
    const serverPrompt = mcpPromptChoice(line.flags, line.prompt, SEND_USAGE);
    const { promptFrom } = await import('../flags/stdin-prompt.js');
    const { outputFormatOf } = await import('../flags/output-format.js');
    const args = {
      format: outputFormatOf({ ...line.flags, json: line.flags.json === true }, SEND_USAGE),
      entrypoint: line.flags.blocking ? ('blocking' as const) : ('streaming' as const),
      noTools: line.flags['no-tool-runs'] || line.flags['no-tools'],
      ...sendLoopValues(line.flags, SEND_USAGE),
      prompt: await promptFrom(line.prompt, SEND_USAGE),
    };
    format = args.format;
    const core = await import('@cw/core');
    const { trailingFlagWarning } = await import('../flags/prompt-flag-warning.js');
    const warning = trailingFlagWarning(argv);
    if (warning !== null) process.stderr.write(`cw: ${core.terminalSafe(warning)}\n`);
    if (line.flags['no-tools']) {
      process.stderr.write(
        `cw: ${core.terminalSafe('warning: --no-tools is now --no-tool-runs: the tools are still offered, and their calls are handed back, not run')}\n`,
      );
    }
    const { streamJsonLine, resultLine, approvalLine } = await import('../render/stream-json.js');
    // One JSON object per line; a line is whole before the next is started.
    const writeLine = (value: unknown): void => {
      process.stdout.write(`${JSON.stringify(value)}\n`);
    };
    const { agentFor } = await import('../entry/load-runtime.js');
    const { agent, registry } = await agentFor(source());
    // A session file that is not a session is moved aside and the send starts it fresh (preview never does).
    const { snapshot, movedAside } = await agent.load(line.choices, { repair: true });
    if (movedAside !== null)
      process.stderr.write(
        `cw: session ${core.safeIdentifier(movedAside.name)} was not readable; moved it aside to ${core.terminalSafe(movedAside.file)} and started it fresh\n`,
      );
    // A server prompt becomes the turn's prompt text before anything else is decided (docs/mcp.md, "Prompts").
    const prompt =
      serverPrompt === null
        ? args.prompt
        : await core.mcp.resolveMcpPrompt({
            home: (await import('@cw/core/home')).cwHome(),
            servers: snapshot.config.mcpServers,
            config: snapshot.config,
            ref: serverPrompt.ref,
            args: serverPrompt.args,
            signal: controller.signal,
            ...(snapshot.workingContext ? { workspace: snapshot.workingContext.workspace } : {}),
          });
    if (prompt === undefined && !core.awaitsContinuation(snapshot)) throw promptRequired();
    const { renderPluginProblems } = await import('../plugin-packages/render-plugin-problems.js');
    await renderPluginProblems(registry.problems);
    // A permission rule that names no tool or server cw knows is said before anything runs (docs/mcp.md).
    for (const warning of core.permissionRuleWarnings(
      snapshot.config,
      registry.toolCatalog.map((tool) => tool.name),
    ))
      process.stderr.write(`cw: ${core.terminalSafe(`warning: ${warning}`)}\n`);
    const { projectionWarningLine } = await import('../render/render-projection-warning.js');
    const { toolStartLine, toolEndLine, toolChangesLine } = await import('../render/tool-status-line.js');
    const { foldedOutput } = await import('../render/folded-output.js');
    const { askOnTerminal, canAsk } = await import('./ask-on-terminal.js');
    // On a colour terminal the reply is rendered as Markdown, block by block (docs/cli.md, "What a
    // terminal shows"); the libraries load while the request goes out, and never off a terminal.
    const { useColor } = await import('./run-preview.js');
    const markdown =
      args.format === 'text' && useColor()
        ? import('../render/load-markdown.js')
            .then(async ({ loadMarkdown, terminalWidth }) => ({
              renderer: await loadMarkdown(core.terminalSafeMultiline),
              width: () => terminalWidth(process.stdout),
            }))
            .catch(() => null)
        : null;
    const stderrLine = (line: string): void => {
      endReply();
      spinner.stop();
      // A notice never lands in the middle of streamed reply text.
      if (midLine) process.stdout.write('\n');
      midLine = false;
      process.stderr.write(line);
    };
    const notice = (text: string): void => stderrLine(`cw: ${core.terminalSafe(text)}\n`);
    const retries = core.transportSettingsFor(snapshot.config, '', { maxRetries: args.maxRetries }).maxRetries;
    // The command's answers and posture live in the core's store; the posture is read from it.
    const approvals = new core.ApprovalStore(args.approval);
    const posture = approvals.postureFor(snapshot.config.approval, { noTools: args.noTools === true });
    // The agent opens the sandbox and asks for commands when there is none (docs/security.md): a
    // terminal to ask on is all this host offers.
    const interactive = canAsk();
    let toldNoTerminal = false;
    const run = agent.run(prompt, {
      snapshot,
      entrypoint: args.entrypoint,
      noTools: args.noTools,
      approvals,
      ...(args.maxSteps === undefined ? {} : { maxSteps: args.maxSteps }),
      ...(args.maxRetries === undefined ? {} : { maxRetries: args.maxRetries }),
      signal: controller.signal,
      ...(line.flags.sandbox === undefined ? {} : { sandbox: line.flags.sandbox }),
      ...(interactive
        ? {
            onApproval: async (call: import('@cw/core').AskedCall) => {
              spinner.stop();
              const decision = await askOnTerminal(call, core.terminalSafe);
              if (args.format === 'stream-json') writeLine(approvalLine(call, decision, core));
              return decision;
            },
          }
        : {}),
    });
    let finish: Extract<import('@cw/core').AgentEvent, { type: 'turn-finish' }> | undefined;
    let session = { session: snapshot.session.name, session_id: snapshot.session.key };
    for await (const event of run) {
      if (event.type === 'turn-start') {
        session = { session: event.session, session_id: event.session_id };
        turn = { ...session, usages: [], costs: [] };
      }
      if (event.type === 'step-finish') {
        turn?.usages.push(event.usage);
        turn?.costs.push(event.cost);
      }
      if (event.type === 'turn-finish') finish = event;
      if (args.format === 'stream-json') {
        const jsonLine = streamJsonLine(event, core, registry.turn.notices);
        if (jsonLine !== null) writeLine(jsonLine);
      }
      switch (event.type) {
        case 'projection-warning':
          // Printed before the request goes out: the person sees which tools were left off first.
          stderrLine(projectionWarningLine(event.warning, core.terminalSafe));
          break;
        case 'notice':
          notice(noticeText(event.notice, registry.turn.notices));
          break;
        case 'retry':
          notice(`retry ${event.retry.attempt} of ${retries} in ${event.retry.delayMs} ms after ${event.retry.cause}`);
          break;
        case 'step-start':
          spinner.start();
          break;
        case 'text-delta': {
          // Text as it arrives, for a person; the JSON formats print it as data instead.
          if (args.format !== 'text') break;
          const rendering = await markdown;
          if (rendering !== null) {
            reply ??= rendering.renderer.stream((text) => {
              spinner.stop();
              process.stdout.write(text);
            }, rendering.width());
            reply.push(event.text);
            streamed = true;
            // While a block is still open, the spinner says text is coming.
            if (!reply.idle) spinner.start();
            break;
          }
          spinner.stop();
          const text = core.terminalSafeMultiline(event.text);
          process.stdout.write(text);
          streamed = true;
          midLine = !text.endsWith('\n');
          break;
        }
        case 'tool-call':
          stderrLine(toolStartLine(event.call.name, event.summary, core.terminalSafe));
          break;
        case 'tool-result':
          stderrLine(toolEndLine(event.record, core.terminalSafe) + toolChangesLine(event.record, core.terminalSafe));
          // For the person at the terminal, what came back, folded (the model reads all of it).
          if (process.stderr.isTTY === true && (event.record.status === 'ok' || event.record.status === 'error'))
            for (const line of foldedOutput(
              event.record.content,
              core.terminalSafe,
              (process.stderr.columns ?? 80) - 6,
            ))
              process.stderr.write(`cw:   ${line}\n`);
          // Said once, when it first matters: a call was refused because no one could be asked.
          if (event.record.status === 'refused' && posture === 'ask' && !interactive && !toldNoTerminal) {
            toldNoTerminal = true;
            notice(
              'no terminal to ask on, so approval ask acts as read-only: use --approval workspace or permissions.allow',
            );
          }
          break;
        default:
          break;
      }
    }
    const sent = await run.result;
    endReply();
    spinner.stop();
    const totals = {
      ...session,
      usage: finish?.usage ?? core.totalUsage(sent.steps.map((step) => step.reply.usage)),
      cost: finish?.cost ?? core.sumCosts(sent.steps.map((step) => step.cost)),
      session_cost: finish?.session_cost ?? { usd: 0, steps_without_cost: sent.steps.length },
    };
    if (args.format === 'stream-json') {
      writeLine(resultLine(sent, totals, core));
    } else if (args.format === 'json') {
      const { sendJsonDocument } = await import('../render/send-json.js');
      process.stdout.write(`${JSON.stringify(sendJsonDocument(sent, totals, core), null, 2)}\n`);
    } else {
      // The reply is the model's text, shown to the person who asked for it; only terminal controls are removed.
      const last = sent.steps.at(-1);
      const streamedLast = streamed && last !== undefined && last.reply.text !== '';
      const rendering = await markdown;
      if (midLine) process.stdout.write('\n');
      else if (!streamedLast && sent.reply.text !== '')
        process.stdout.write(
          rendering === null
            ? `${core.terminalSafeMultiline(sent.reply.text)}\n`
            : rendering.renderer.render(sent.reply.text, rendering.width()),
        );
      else if (!streamed) process.stdout.write('\n');
      midLine = false;
      // For the person at the terminal; a script reads the totals from --output-format json.
      if (process.stderr.isTTY === true) {
        const { usageLine } = await import('../render/usage-line.js');
        process.stderr.write(usageLine(totals.usage, sent.steps.length, totals));
      }
    }
    // A fresh session's name is said once it holds the turn, so it can be picked again with -s.
    if (line.choices.session?.kind === 'new') notice(`new session ${core.safeIdentifier(snapshot.session.name)}`);
    const { stopLine } = await import('../render/stop-line.js');
    const stopped = stopLine(sent.stopped, sent.steps.length, sent.reply.toolCalls.length, 'send');
    // Returned calls are data in the JSON formats; the other stops are said in every format.
    if (stopped !== null && (sent.stopped !== 'tool-calls-returned' || args.format === 'text')) notice(stopped);
    if (sent.stopped === 'interrupted') exiter.exit(INTERRUPTED_EXIT);
  } catch (error) {
    // What the model wrote before the failure is shown, as it would have been.
    endReply();
    spinner.stop();
    // Streamed text ends its line first, so the error line stands on its own.
    if (midLine) process.stdout.write('\n');
    if ((error as { oclif?: unknown }).oclif !== undefined) throw error;
    // Ctrl-C during a request stops the turn as Ctrl-C between steps does: every format says 130.
    const interrupted = (error as { kind?: unknown }).kind === 'interrupted';
    const failure = interrupted ? Object.assign(error as Error, { exitCode: INTERRUPTED_EXIT }) : error;
    if (interrupted && format === 'stream-json' && turn !== undefined) {
      const core = await import('@cw/core');
      const { interruptedResultLine } = await import('../render/stream-json.js');
      const line = interruptedResultLine(
        { ...turn, steps: turn.usages.length, usage: core.totalUsage(turn.usages), cost: core.sumCosts(turn.costs) },
        core,
      );
      process.stdout.write(`${JSON.stringify(line)}\n`);
    } else if (format !== 'text') {
      const { jsonErrorDocument } = await import('../render/json-error.js');
      const document = await jsonErrorDocument(failure);
      // The event stream ends with an error line; --json prints the error document.
      process.stdout.write(
        format === 'stream-json'
          ? `${JSON.stringify({ type: 'error', ...document })}\n`
          : `${JSON.stringify(document, null, 2)}\n`,
      );
    }
    await reportError(exiter, failure);
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}
