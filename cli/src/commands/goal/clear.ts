import { Command } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw goal clear`: removes the active session's goal, readable or not. */
export default class GoalClear extends Command {
  static override summary = "Remove the session's goal and its token budget";
  static override description =
    'Removes the goal file of the active session, even one cw cannot read. Docs: docs/goal.md.';
  static override examples = ['<%= config.bin %> goal clear'];

  async run(): Promise<void> {
    try {
      await this.parse(GoalClear);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      const { name: session, key } = await core.activeSession(home, process.cwd());
      const removed = await core.clearGoal(home, key);
      process.stdout.write(
        removed
          ? `Cleared the goal of session ${core.safeIdentifier(session)}.\n`
          : `No goal was set for session ${core.safeIdentifier(session)}.\n`,
      );
    } catch (error) {
      await reportError(this, error);
    }
  }
}
