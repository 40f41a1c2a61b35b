import { Args, Command } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw skills use <name>`: the next prompt cw send submits is wrapped with that skill's instructions. */
export default class SkillsUse extends Command {
  static override summary = 'Wrap the next prompt cw send submits with a skill';
  static override description =
    "Sets the skill as pending for the active session. The next cw send that goes out wraps its prompt with the skill's instructions and then clears it; preview-request shows the wrapped request and never clears it. Docs: docs/skills.md.";
  static override examples = ['<%= config.bin %> skills use code-review'];
  static override args = {
    name: Args.string({ required: true, description: 'The skill, as cw skills list names it.' }),
  };

  async run(): Promise<void> {
    try {
      const { args } = await this.parse(SkillsUse);
      const core = await import('@cw/core');
      const { loadSkillContext, SkillUseError } = await import('../../run/skill-context.js');
      const { home, session, sessionName, workspace } = await loadSkillContext();
      // The name is never echoed unless it is a skill name: it might be a secret pasted in the wrong place.
      const shown = core.SKILL_NAME_PATTERN.test(args.name) ? args.name : null;
      const found = shown === null ? null : await core.findSkill(home, workspace, shown);
      if (found === null || shown === null)
        throw new SkillUseError(
          `${shown === null ? 'that is not a skill name' : `no skill ${shown} is installed`}; cw skills list shows the skills`,
        );
      if (found.status === 'broken') throw new SkillUseError(`skill ${shown} cannot be used: ${found.problem}`);
      await core.setPendingSkill(home, session, shown);
      process.stdout.write(
        `Skill ${shown} (${found.source}) will wrap the next prompt of session ${core.safeIdentifier(sessionName)}.\n`,
      );
    } catch (error) {
      await reportError(this, error);
    }
  }
}
