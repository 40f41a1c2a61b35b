import type { TurnChoices } from '../flags/turn-choices.js';
import type { RuntimeSource } from '../entry/load-runtime.js';
import { CHAT_USAGE } from '../flags/usage-lines.js';

// `cw chat`'s body, after its flags are read: by oclif (commands/chat.ts) or by the oclif-free entry
// (entry/fast-chat.ts), so both open the same session the same way and fail with the same words.

/** What `cw chat`'s command line chose. */
export interface ChatLine {
  readonly flags: { readonly approval?: string; readonly resume?: string; readonly continue?: boolean };
  /** `--prompt` (from `cw "…"`): the session's first prompt. */
  readonly prompt: string | undefined;
  readonly choices: TurnChoices;
  /** `-r` without a name: the picker chooses the session. */
  readonly pick: boolean;
}

/** Opens the interactive session the line asks for; `exit` ends a bad line with its code. */
export async function runChat(
  line: ChatLine,
  source: () => RuntimeSource,
  exiter: { exit(code: number): never },
): Promise<void> {
  const { UsageError } = await import('../flags/usage-error.js');
  const { approvalValue } = await import('../flags/flag-values.js');
  const approval = line.flags.approval === undefined ? undefined : approvalValue(line.flags.approval, CHAT_USAGE);
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true)
    throw new UsageError('cw chat needs a terminal; from a script, use cw send --prompt <text>.', CHAT_USAGE);
  const session = line.pick
    ? ({ kind: 'pick' } as const)
    : line.flags.resume !== undefined
      ? ({ kind: 'resume', name: line.flags.resume } as const)
      : line.flags.continue === true
        ? ({ kind: 'continue' } as const)
        : ({ kind: 'none' } as const);
  if (line.pick && line.choices.session !== undefined)
    throw new UsageError(
      '`--session`, `--new`, `--continue` and `--resume` each pick the session: give one.',
      CHAT_USAGE,
    );
  const { startSessionProblem } = await import('./start-session.js');
  const problem = await startSessionProblem(session);
  if (problem !== null) {
    process.stderr.write(`cw: ${problem}\n`);
    exiter.exit(2);
  }
  let choices = line.choices;
  if (session.kind === 'pick') {
    const { pickSession } = await import('../chat/session-picker.js');
    const picked = await pickSession();
    if (picked === null) return;
    choices = { ...choices, session: { kind: 'named', name: picked } };
  }
  const { agentFor } = await import('../entry/load-runtime.js');
  const { agent, registry } = await agentFor(source());
  const { renderPluginProblems } = await import('../plugin-packages/render-plugin-problems.js');
  await renderPluginProblems(registry.problems);
  const { runChatSession } = await import('../chat/chat-session.js');
  await runChatSession({
    agent,
    registry,
    choices,
    approval,
    ...(line.prompt === undefined ? {} : { firstPrompt: line.prompt }),
    resumed: session.kind !== 'none',
  });
}
