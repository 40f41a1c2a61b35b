import { Command, Flags } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw skills list`: the skills in the cw home and the workspace, and which one is pending. Reads only. */
export default class SkillsList extends Command {
  static override summary = 'List the skills cw can use: SKILL.md folders in the cw home and the workspace';
  static override description =
    'Skills are folders holding a SKILL.md (front matter name and description, then instructions) under $CW_HOME/skills and the workspace .cw/skills; a workspace skill overrides a home skill of the same name. A broken skill is listed with its problem. Reads only. Docs: docs/skills.md.';
  static override examples = ['<%= config.bin %> skills list', '<%= config.bin %> skills list --json'];
  static override flags = {
    json: Flags.boolean({ description: 'Print the skills as JSON ({"session", "pending", "skills": [...]}).' }),
  };

  async run(): Promise<void> {
    try {
      const { flags } = await this.parse(SkillsList);
      const core = await import('@cw/core');
      const { loadSkillContext } = await import('../../run/skill-context.js');
      const { home, session, sessionName, workspace } = await loadSkillContext();
      const found = await core.discoverSkills(home, workspace);
      const pending = await core.readPendingSkill(home, session).catch(() => 'unreadable');
      const skills = found.map(core.skillView);
      const safePending = pending === null ? null : core.safeIdentifier(pending);
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify({ session: core.safeIdentifier(sessionName), pending: safePending, skills }, null, 2)}\n`,
        );
        return;
      }
      if (skills.length === 0) {
        process.stdout.write('No skills found: add a folder with a SKILL.md under $CW_HOME/skills or .cw/skills.\n');
        return;
      }
      const width = Math.max(...skills.map((skill) => skill.name.length));
      for (const skill of skills) {
        const mark = skill.name === safePending ? '*' : ' ';
        const text = skill.description ?? `broken: ${skill.problem ?? ''}`;
        process.stdout.write(
          `${mark} ${skill.name.padEnd(width)}  ${skill.source.padEnd(9)}  ${core.terminalSafe(text)}\n`,
        );
      }
      if (safePending !== null) process.stdout.write(`\n* pending: wraps the next prompt cw send submits\n`);
    } catch (error) {
      await reportError(this, error);
    }
  }
}
