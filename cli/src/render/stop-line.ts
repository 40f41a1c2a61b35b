import type { LoopStop } from '@cw/core';

// Why a turn stopped, in one place for every host that says it in words (docs/cli.md): cw send
// tells how to go on from a shell, cw chat from its prompt.

/** The host saying it: what the person types next differs. */
export type StopHost = 'send' | 'chat';

/** The line for a turn that stopped other than by answering, or null; `calls` is the last reply's tool calls. */
export function stopLine(stopped: LoopStop, steps: number, calls: number, host: StopHost): string | null {
  switch (stopped) {
    case 'answered':
      return null;
    case 'step-limit':
      return host === 'send'
        ? `stopped after ${steps} steps (max_steps); run cw send without --prompt to continue`
        : `stopped after ${steps} steps (max_steps); type a prompt to go on`;
    case 'tool-calls-returned':
      return `the model asked for ${calls} tool call(s); they were not run (${host === 'send' ? 'approval never or --no-tool-runs' : 'approval never'})`;
    case 'interrupted':
      return host === 'send'
        ? 'interrupted: the calls that ran are saved, the rest are answered "not executed"; cw send continues'
        : 'cancelled: the calls that ran are saved, the rest are answered "not executed"';
    default: {
      const never: never = stopped;
      return never;
    }
  }
}
