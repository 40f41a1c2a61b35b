import { Command } from '@oclif/core';
import { sendFlags, turnFlags } from '../command-line.js';
import { wordsBeforePrompt } from '../grammar.js';
import { reportError } from '../report-error.js';

// Defaults of the agent loop's bounds (docs/agent-loop.md).
const DEFAULT_MAX_STEPS = 25;
const DEFAULT_LIMITS = { outputBytes: 32 * 1024, outputLines: 2_000, commandTimeoutMs: 120_000 };
// What a shell exits with after Ctrl-C, so scripts can tell an interrupted run from a failure.
const INTERRUPTED_EXIT = 130;

/** `cw send`: send exactly the request preview-request describes, run the tools the model calls, save each step. */
export default class Send extends Command {
  static override summary = 'Send the next turn and run the tools the model calls, under an approval posture';
  static override description =
    'Each request goes through the same seam as preview-request and is sent byte for byte; a reply counts only when complete. Tool calls run under the approval posture (never, read-only, workspace, ask), in the workspace, and every step is saved as it completes. Without --prompt, continues a loop that stopped after running tools. Docs: docs/agent-loop.md, docs/transport.md.';
  static override usage =
    'send [-r <route>] [-m <model>|<route/model>] [--reasoning <level>] [-s <name>|-n|-c] [--json] [--blocking] [--max-retries <0-10>] [--max-steps <1-200>] [--approval <posture>] [--no-tools] [--prompt <text>|-]';
  static override examples = [
    '<%= config.bin %> send --prompt "explain this repository"',
    '<%= config.bin %> send -m deepseek/deepseek-reasoner --reasoning high --prompt "plan the refactor"',
    '<%= config.bin %> send -n --prompt "start over on a new task"',
    'git diff | <%= config.bin %> send --prompt -',
    '<%= config.bin %> send --approval workspace --prompt "make the failing test pass"',
    '<%= config.bin %> send --no-tools --json --blocking --prompt hello',
    '<%= config.bin %> send',
  ];
  static override flags = { ...turnFlags, ...sendFlags };

  async run(): Promise<void> {
    this.parsed = true;
    // Set before parsing, so even a usage error is one JSON document on stdout.
    let json = wordsBeforePrompt(this.argv).includes('--json');
    let streamed = false;
    let midLine = false;
    let interrupts = 0;
    const controller = new AbortController();
    // The first Ctrl-C stops the loop cleanly (the session stays valid); a second one leaves at once.
    const onInterrupt = (): void => {
      interrupts += 1;
      if (interrupts > 1) process.exit(INTERRUPTED_EXIT);
      controller.abort();
    };
    process.on('SIGINT', onInterrupt);
    const { Spinner } = await import('../spinner.js');
    const spinner = new Spinner();
    try {
      const { SEND_USAGE, promptRequired } = await import('../grammar.js');
      const { parseCommandLine, sendLoopValues } = await import('../command-line.js');
      const line = await parseCommandLine<{
        json: boolean;
        blocking: boolean;
        'no-tools': boolean;
        'max-retries'?: string;
        'max-steps'?: string;
        approval?: string;
      }>(this, Send, this.argv, SEND_USAGE);
      const { promptFrom } = await import('../stdin-prompt.js');
      const args = {
        json: line.flags.json,
        entrypoint: line.flags.blocking ? ('blocking' as const) : ('streaming' as const),
        noTools: line.flags['no-tools'],
        ...sendLoopValues(line.flags, SEND_USAGE),
        prompt: await promptFrom(line.prompt, SEND_USAGE),
      };
      json = args.json;
      const core = await import('@cw/core');
      const { loadRuntimeForSend } = await import('../load-runtime.js');
      const { snapshot, home, registry } = await loadRuntimeForSend(this.config, line.choices, (moved) =>
        process.stderr.write(
          `cw: session ${core.safeIdentifier(moved.name)} was not readable; moved it aside to ${core.terminalSafe(moved.file)} and started it fresh\n`,
        ),
      );
      if (args.prompt === undefined && !core.awaitsContinuation(snapshot)) throw promptRequired();
      // A goal that stops the turn stops it before any MCP server starts.
      await core.refuseSendOnGoal(home, snapshot.session.key);
      const { renderPluginProblems } = await import('../render-plugin-problems.js');
      await renderPluginProblems(registry.problems);
      const { projectionWarningLine } = await import('../render-projection-warning.js');
      const { toolStartLine, toolEndLine } = await import('../tool-status-line.js');
      const { askOnTerminal, canAsk } = await import('../ask-on-terminal.js');
      const stderrLine = (line: string): void => {
        spinner.stop();
        // A notice never lands in the middle of streamed reply text.
        if (midLine) process.stdout.write('\n');
        midLine = false;
        process.stderr.write(line);
      };
      const notice = (text: string): void => stderrLine(`cw: ${core.terminalSafe(text)}\n`);
      const retries = core.transportSettingsFor(snapshot.config, '', { maxRetries: args.maxRetries }).maxRetries;
      const posture = args.noTools ? 'never' : (args.approval ?? snapshot.config.approval);
      const interactive = posture === 'ask' && canAsk();
      let toldNoTerminal = false;
      const limits = snapshot.config.tool_limits;
      const loop = {
        posture,
        rules: snapshot.config.permissions,
        workspace: await core.workspaceRoot(snapshot.config.workspace),
        maxSteps: args.maxSteps ?? snapshot.config.max_steps ?? DEFAULT_MAX_STEPS,
        limits: {
          outputBytes: limits.output_bytes ?? DEFAULT_LIMITS.outputBytes,
          outputLines: limits.output_lines ?? DEFAULT_LIMITS.outputLines,
          commandTimeoutMs: limits.command_timeout_ms ?? DEFAULT_LIMITS.commandTimeoutMs,
        },
        ...(interactive
          ? {
              ask: (call: { name: string; summary: string }) => {
                spinner.stop();
                return askOnTerminal(call, core.terminalSafe);
              },
            }
          : {}),
        onToolStart: (call: { name: string }, summary: string) =>
          stderrLine(toolStartLine(call.name, summary, core.terminalSafe)),
        onToolEnd: (record: Parameters<typeof toolEndLine>[0]) => {
          stderrLine(toolEndLine(record, core.terminalSafe));
          // Said once, when it first matters: a call was refused because no one could be asked.
          if (record.status === 'refused' && posture === 'ask' && !interactive && !toldNoTerminal) {
            toldNoTerminal = true;
            notice(
              'no terminal to ask on, so approval ask acts as read-only: use --approval workspace or permissions.allow',
            );
          }
        },
      };
      // MCP servers are started for the send only: their tools join this turn's catalog, and a server
      // that fails is named in a warning and left out; the turn still goes.
      const hasMcp = Object.values(snapshot.config.mcpServers).some((server) => !server.disabled);
      const mcp = hasMcp
        ? await core.openMcpForSend({
            home,
            config: snapshot.config,
            env: process.env,
            pluginTools: registry.toolCatalog,
            callTimeoutMs: loop.limits.commandTimeoutMs,
            signal: controller.signal,
            onProgress: (tool: string, progress: string) => notice(`▸ ${tool} progress ${progress}`),
          })
        : null;
      for (const failure of mcp?.failures ?? []) {
        // The problem already names the server; its tools are simply absent from this turn.
        notice(`warning: ${failure.problem}; its tools are left out of this turn`);
      }
      for (const warning of core.permissionRuleWarnings(
        snapshot.config,
        registry.toolCatalog.map((tool) => tool.name),
      ))
        notice(`warning: ${warning}`);
      const turnSnapshot = mcp === null ? snapshot : { ...snapshot, catalog: mcp.catalog, mcp: mcp.mcp };
      const sent = await core
        .sendTurn(turnSnapshot, {
          home,
          prompt: args.prompt,
          entrypoint: args.entrypoint,
          env: process.env,
          signal: controller.signal,
          loop: { ...loop, extraTools: mcp?.tools ?? [] },
          ...(args.maxRetries === undefined ? {} : { maxRetries: args.maxRetries }),
          // Printed before the request goes out: the person sees which tools were left off first.
          onWarning: (found) => stderrLine(projectionWarningLine(found, core.terminalSafe)),
          onWait: () => notice('waiting for another cw send on this session to finish'),
          onStaleLockBroken: () => notice('removed a session lock left by a cw process that is no longer running'),
          onRetry: (retry) =>
            notice(`retry ${retry.attempt} of ${retries} in ${retry.delayMs} ms after ${retry.cause}`),
          onStep: () => spinner.start(),
          onAutoRoute: (route) => notice(`auto routing chose route ${core.safeIdentifier(route)}`),
          onCompaction: (done) =>
            notice(
              `compacted the session: ${done.summarised} earlier messages replaced by a summary (docs/compaction.md)`,
            ),
          // Text as it arrives, for a person; --json prints one document at the end instead.
          ...(args.json
            ? {}
            : {
                onText: (delta: string) => {
                  spinner.stop();
                  const text = core.terminalSafeMultiline(delta);
                  process.stdout.write(text);
                  streamed = true;
                  midLine = !text.endsWith('\n');
                },
              }),
        })
        .finally(() => mcp?.close());
      spinner.stop();
      if (args.json) {
        const { sendJsonDocument } = await import('../send-json.js');
        process.stdout.write(`${JSON.stringify(sendJsonDocument(sent), null, 2)}\n`);
      } else {
        // The reply is the model's text, shown to the person who asked for it; only terminal controls are removed.
        const last = sent.steps.at(-1);
        const streamedLast = streamed && last !== undefined && last.reply.text !== '';
        if (midLine) process.stdout.write('\n');
        else if (!streamedLast && sent.reply.text !== '')
          process.stdout.write(`${core.terminalSafeMultiline(sent.reply.text)}\n`);
        else if (!streamed) process.stdout.write('\n');
        midLine = false;
      }
      // A fresh session's name is said once it holds the turn, so it can be picked again with -s.
      if (line.choices.session?.kind === 'new') notice(`new session ${core.safeIdentifier(snapshot.session.name)}`);
      if (sent.stopped === 'step-limit') {
        notice(`stopped after ${sent.steps.length} steps (max_steps); run cw send without --prompt to continue`);
      } else if (sent.stopped === 'tool-calls-returned' && !args.json) {
        notice(
          `the model asked for ${sent.reply.toolCalls.length} tool call(s); they were not run (approval never or --no-tools)`,
        );
      } else if (sent.stopped === 'interrupted') {
        notice('interrupted: the calls that ran are saved, the rest are answered "not executed"; cw send continues');
        this.exit(INTERRUPTED_EXIT);
      }
    } catch (error) {
      spinner.stop();
      // Streamed text ends its line first, so the error line stands on its own.
      if (midLine) process.stdout.write('\n');
      if ((error as { oclif?: unknown }).oclif !== undefined) throw error;
      if (json) {
        const { jsonErrorDocument } = await import('../json-error.js');
        process.stdout.write(`${JSON.stringify(await jsonErrorDocument(error), null, 2)}\n`);
      }
      if ((error as { kind?: unknown }).kind === 'interrupted') {
        await reportError(this, Object.assign(error as Error, { exitCode: INTERRUPTED_EXIT }));
      }
      await reportError(this, error);
    } finally {
      process.off('SIGINT', onInterrupt);
    }
  }
}
