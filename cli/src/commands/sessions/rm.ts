import { Args, Command } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw sessions rm <name>`: removes a session of this workspace, with its goal and other state. */
export default class SessionsRm extends Command {
  static override summary = 'Remove a session of this workspace, with its goal and state';
  static override examples = ['<%= config.bin %> sessions rm s1'];
  static override args = { name: Args.string({ required: true, description: 'The session, in this workspace.' }) };

  async run(): Promise<void> {
    try {
      const { args } = await this.parse(SessionsRm);
      const core = await import('@cw/core');
      const { sessionKeyHere } = await import('../../flags/session-target.js');
      const { home, key } = await sessionKeyHere(args.name);
      await core.removeSession(home, key);
      process.stdout.write(`Removed session ${core.safeIdentifier(args.name)}.\n`);
    } catch (error) {
      await reportError(this, error);
    }
  }
}
