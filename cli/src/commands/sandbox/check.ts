import { Command, Flags } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw sandbox check`: runs a probe inside the sandbox, as the model's commands run, and says what it could see. */
export default class SandboxCheck extends Command {
  static override summary = 'Show what commands inside the sandbox can and cannot see';
  static override description =
    'Says whether the sandbox program was found in a trusted system folder, then runs one probe inside the sandbox cw send would use, with this workspace and config: each hidden path (~/.ssh, the cw home, sandbox.deny_read, …), the workspace and its temp folder, the home folder, .git (config, hooks and info read-only, objects and refs writable, a new commondir and a rename refused), a connection to a loopback port cw opens, and (bubblewrap) that no capability is left, mount and a Unix socket of this machine are refused, the socket variables are unset and the limits in force, and that a credential planted in the environment of cw does not reach it. Prints labels, never paths; exits 1 when anything is not as it should be, or there is no sandbox. Docs: docs/security.md.';
  static override examples = ['<%= config.bin %> sandbox check', '<%= config.bin %> sandbox check --json'];
  static override flags = {
    json: Flags.boolean({ description: 'Print one JSON document.' }),
  };

  async run(): Promise<void> {
    try {
      const { flags } = await this.parse(SandboxCheck);
      const core = await import('@cw/core');
      const { homedir } = await import('node:os');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      const config = await core.loadConfig(home);
      const workspace = await core.workspaceRoot(config.workspace);
      const program = core.findSandboxProgram(process.env, process.platform, { workspace });
      if (program === null) throw new core.SandboxUnavailableError('check');
      const sandbox = await core.openCommandSandbox({
        program,
        config: config.sandbox,
        workspace,
        home: homedir(),
        cwHome: home,
      });
      let rows: Awaited<ReturnType<typeof core.checkSandbox>>;
      try {
        rows = await core.checkSandbox(sandbox, {
          workspace,
          home: homedir(),
          cwHome: home,
          denyRead: config.sandbox.deny_read,
          // The probe gets what a command gets of cw's environment (docs/security.md).
          env: process.env,
          config,
        });
      } finally {
        await sandbox.close();
      }
      const failed = rows.filter((row) => !row.ok).length;
      // Labels are cw's own words (`~/.ssh`, `deny_read entry 2`, `.git/hooks`); still made terminal-safe.
      const shown = rows.map((row) => ({ ...row, what: core.terminalSafe(row.what) }));
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify({ sandbox: program.kind, mode: config.sandbox.mode, network: sandbox.network, checks: shown, failed }, null, 2)}\n`,
        );
      } else {
        const width = Math.max(...shown.map((row) => row.what.length));
        process.stdout.write(
          `sandbox ${program.kind} (mode ${config.sandbox.mode}, network ${sandbox.network}), checked from inside:\n`,
        );
        for (const row of shown) {
          const note =
            row.found === 'absent'
              ? 'not on this machine'
              : row.ok
                ? row.found
                : `${row.found} (expected ${row.expected})`;
          process.stdout.write(`${row.ok ? 'ok  ' : 'FAIL'}  ${row.what.padEnd(width)}  ${note}\n`);
        }
        process.stdout.write(failed === 0 ? 'Everything is as it should be.\n' : `${failed} check(s) failed.\n`);
      }
      if (failed > 0) this.exit(1);
    } catch (error) {
      if ((error as { oclif?: unknown }).oclif !== undefined) throw error;
      await reportError(this, error);
    }
  }
}
