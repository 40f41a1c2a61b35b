import { Args, Command, Flags } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw goal set`: sets the active session's goal and its token budget. */
export default class GoalSet extends Command {
  static override summary = "Set the session's goal and a token budget that stops cw send when used up";
  static override description =
    'A new text starts a new goal with nothing used; the same text, or none, keeps the goal and its usage and changes only the budget, so raising the budget lets the session go on. Every request cw send makes counts the tokens the provider reports. Docs: docs/goal.md.';
  static override examples = [
    '<%= config.bin %> goal set "make the parser tests pass" --token-budget 200000',
    '<%= config.bin %> goal set --token-budget 400000',
  ];
  static override args = {
    text: Args.string({
      required: false,
      description: 'What the session works towards; omit it to change only the budget.',
    }),
  };
  static override flags = {
    'token-budget': Flags.integer({
      min: 1,
      description: 'Tokens (input plus output, as providers report them) the goal may spend.',
    }),
  };

  async run(): Promise<void> {
    try {
      const { args, flags } = await this.parse(GoalSet);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const budget = flags['token-budget'];
      if (budget !== undefined && budget > core.MAX_GOAL_TOKEN_BUDGET)
        throw new core.GoalStateError(`--token-budget must be at most ${core.MAX_GOAL_TOKEN_BUDGET}`);
      if (args.text !== undefined && (args.text.trim() === '' || args.text.length > core.MAX_GOAL_TEXT))
        throw new core.GoalStateError(`the goal text must be 1 to ${core.MAX_GOAL_TEXT} characters`);
      if (args.text === undefined && budget === undefined)
        throw new core.GoalStateError('give the goal text, --token-budget, or both');
      const home = cwHome();
      const { name: session, key } = await core.activeSession(home, process.cwd());
      const goal = await core.setGoal(home, key, {
        ...(args.text === undefined ? {} : { text: args.text }),
        ...(budget === undefined ? {} : { tokenBudget: budget }),
      });
      const view = core.goalView(goal);
      const spent =
        view.token_budget === null
          ? `no token budget (${view.tokens_used} tokens used)`
          : `token budget ${view.token_budget} (${view.tokens_used} used, ${view.tokens_left} left)`;
      process.stdout.write(`Goal set for session ${core.safeIdentifier(session)}: ${spent}.\n`);
    } catch (error) {
      await reportError(this, error);
    }
  }
}
