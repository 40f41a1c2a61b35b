import { Command, Flags } from '@oclif/core';
import { reportError } from '../render/report-error.js';

/** `cw compact`: summarise the session's older turns now, with one request on its route. */
export default class Compact extends Command {
  static override summary = "Summarise the session's older turns now, keeping the latest ones word for word";
  static override description =
    'Sends one summarising request on the route cw send would use, then replaces the turns before the latest compaction.keep_recent_turns with the summary, atomically. cw send does this by itself when a request nears the input budget (config compaction). A failure leaves the session as it was. Docs: docs/compaction.md.';
  static override examples = ['<%= config.bin %> compact', '<%= config.bin %> compact --json'];
  static override flags = {
    json: Flags.boolean({ description: 'Print {"session", "compacted", "summarised_messages", "kept_messages"}.' }),
    blocking: Flags.boolean({ description: 'Use the blocking entry point, as cw send --blocking does.' }),
  };

  async run(): Promise<void> {
    try {
      const { flags } = await this.parse(Compact);
      const core = await import('@cw/core');
      const { loadRuntime, runtimeSourceOf } = await import('../entry/load-runtime.js');
      const { snapshot, home } = await loadRuntime(runtimeSourceOf(this.config));
      const session = core.safeIdentifier(snapshot.session.name);
      const done = await core.compactSession(snapshot, {
        home,
        env: process.env,
        entrypoint: flags.blocking ? 'blocking' : 'streaming',
        onWait: () => process.stderr.write('cw: waiting for another cw send on this session to finish\n'),
      });
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify(
            {
              session,
              compacted: done !== null,
              summarised_messages: done?.summarised ?? 0,
              kept_messages: done?.kept ?? snapshot.session.messages.length,
            },
            null,
            2,
          )}\n`,
        );
        return;
      }
      process.stdout.write(
        done === null
          ? `Nothing to compact: session ${session} has no turns before the latest ones it keeps.\n`
          : `Compacted session ${session}: ${done.summarised} earlier messages replaced by a summary, ${done.kept} kept.\n`,
      );
    } catch (error) {
      await reportError(this, error);
    }
  }
}
