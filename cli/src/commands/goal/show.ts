import { Command, Flags } from '@oclif/core';
import { reportErrorAs } from '../../render/report-error.js';

/** `cw goal show`: the active session's goal, its budget and what has been used. Reads only. */
export default class GoalShow extends Command {
  static override summary = "Show the session's goal, its token budget and the tokens used";
  static override description =
    'The goal text (secret-shaped text replaced), the budget, the tokens used and left, and whether cw send would stop. Reads only. Docs: docs/goal.md.';
  static override examples = ['<%= config.bin %> goal show', '<%= config.bin %> goal show --json'];
  static override flags = {
    json: Flags.boolean({ description: 'Print the goal as JSON ({"session": ..., "goal": ... or null}).' }),
  };

  async run(): Promise<void> {
    try {
      const { flags } = await this.parse(GoalShow);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      const { name: session, key } = await core.activeSession(home, process.cwd());
      const goal = await core.readGoal(home, key);
      const view = goal === null ? null : core.goalView(goal);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ session: core.safeIdentifier(session), goal: view }, null, 2)}\n`);
        return;
      }
      if (view === null) {
        process.stdout.write(`No goal is set for session ${core.safeIdentifier(session)}.\n`);
        return;
      }
      const budget =
        view.token_budget === null
          ? `none (${view.tokens_used} tokens used)`
          : `${view.token_budget} tokens (${view.tokens_used} used, ${view.tokens_left} left)`;
      process.stdout.write(
        [
          `session  ${core.safeIdentifier(session)}`,
          `goal     ${core.terminalSafe(view.text)}`,
          `budget   ${budget}`,
          `state    ${view.state === 'active' ? 'active' : 'budget exhausted: cw send stops before the next request'}`,
          '',
        ].join('\n'),
      );
    } catch (error) {
      // A script that asked for JSON gets its failure as JSON too.
      await reportErrorAs(this, error, this.argv.includes('--json'));
    }
  }
}
