import { Args, Command } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw sessions rename <name> <new-name>`: renames a session of this workspace, with its state. */
export default class SessionsRename extends Command {
  static override summary = 'Rename a session of this workspace, with its goal and state';
  static override examples = ['<%= config.bin %> sessions rename s1 parser-refactor'];
  static override args = {
    name: Args.string({ required: true, description: 'The session, in this workspace.' }),
    newName: Args.string({ required: true, description: 'Its new name: 1 to 64 letters, digits, - or _.' }),
  };

  async run(): Promise<void> {
    try {
      const { args } = await this.parse(SessionsRename);
      const core = await import('@cw/core');
      const { sessionKeyHere } = await import('../../flags/session-target.js');
      const { home, key } = await sessionKeyHere(args.name);
      // The new name is checked like the old one, before anything moves.
      await sessionKeyHere(args.newName);
      await core.renameSession(home, key, args.newName);
      process.stdout.write(
        `Renamed session ${core.safeIdentifier(args.name)} to ${core.safeIdentifier(args.newName)}.\n`,
      );
    } catch (error) {
      await reportError(this, error);
    }
  }
}
