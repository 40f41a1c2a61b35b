import { Command, Flags } from '@oclif/core';
import { reportErrorAs } from '../../render/report-error.js';

/** `cw sessions`: the sessions of this workspace (or of all), newest first. Reads only. */
export default class Sessions extends Command {
  static override summary = "List this workspace's sessions: name, workspace, turns, last used, route";
  static override description =
    'Sessions are kept per workspace (the git root above the current folder, or config workspace) in the cw home. A workspace is shown as its folder name and a short hash of its path, never the path. Selecting a session (cw send -s/-n/-c) never sends a turn by itself. Docs: docs/cli.md.';
  static override examples = [
    '<%= config.bin %> sessions',
    '<%= config.bin %> sessions --all --json',
    '<%= config.bin %> sessions show default',
  ];
  static override flags = {
    all: Flags.boolean({ summary: 'List the sessions of every workspace, and those kept by name only.' }),
    json: Flags.boolean({ summary: 'Print the list as JSON.' }),
  };

  async run(): Promise<void> {
    let json = this.argv.includes('--json');
    try {
      const { flags } = await this.parse(Sessions);
      json = flags.json;
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      const { key, name: active } = await core.activeSession(home, process.cwd());
      const here = key.split('/')[0] ?? null;
      const rows = await core.listSessions(home, flags.all ? null : here);
      const views = rows.map((row) => ({
        name: core.safeIdentifier(row.name),
        workspace: row.workspace === null ? null : core.safeIdentifier(row.workspace),
        this_workspace: row.workspace === here,
        active: row.workspace === here && row.name === active,
        turns: row.turns,
        messages: row.messages,
        last_used: row.lastUsed,
        route: row.route === null ? null : core.safeIdentifier(row.route),
        corrupt: row.corrupt,
      }));
      if (json) {
        process.stdout.write(`${JSON.stringify({ sessions: views }, null, 2)}\n`);
        return;
      }
      if (views.length === 0) {
        process.stdout.write(
          flags.all ? 'No sessions yet.\n' : 'No sessions in this workspace yet; cw send starts one.\n',
        );
        return;
      }
      const table = [
        ['', 'NAME', 'WORKSPACE', 'TURNS', 'LAST USED', 'ROUTE'],
        ...views.map((view) => [
          view.active ? '*' : '',
          view.name,
          view.workspace ?? '(none)',
          view.corrupt ? 'unreadable' : String(view.turns),
          view.last_used.replace('T', ' ').slice(0, 16),
          view.route ?? '-',
        ]),
      ];
      const widths = table[0]?.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length))) ?? [];
      for (const row of table)
        process.stdout.write(
          `${row
            .map((cell, column) => cell.padEnd(widths[column] ?? 0))
            .join('  ')
            .trimEnd()}\n`,
        );
    } catch (error) {
      await reportErrorAs(this, error, json);
    }
  }
}
