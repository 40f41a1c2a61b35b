import type { ToolProjectionWarning } from '@cw/core/plugin';

/**
 * The one stderr line for a request whose tools were left off or whose tool_choice changed. The
 * core builds the message from redacted names and codes only; `terminalSafe` is the last guard, and
 * is passed in so this module loads nothing by itself.
 */
export function projectionWarningLine(warning: ToolProjectionWarning, terminalSafe: (text: string) => string): string {
  return `cw: warning: ${terminalSafe(warning.message)}\n`;
}
