import { Command } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw skills clear`: no skill wraps the next prompt. */
export default class SkillsClear extends Command {
  static override summary = 'Clear the pending skill of the session';
  static override description = 'Removes the pending skill, even one cw cannot read. Docs: docs/skills.md.';
  static override examples = ['<%= config.bin %> skills clear'];

  async run(): Promise<void> {
    try {
      await this.parse(SkillsClear);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      const { name: session, key } = await core.activeSession(home, process.cwd());
      const removed = await core.clearPendingSkill(home, key);
      process.stdout.write(
        removed
          ? `Cleared the pending skill of session ${core.safeIdentifier(session)}.\n`
          : `No skill was pending for session ${core.safeIdentifier(session)}.\n`,
      );
    } catch (error) {
      await reportError(this, error);
    }
  }
}
