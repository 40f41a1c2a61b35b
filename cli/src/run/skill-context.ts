/** A `cw skills` command cannot do what was asked; the message is cw's words and safe names only. */
export class SkillUseError extends Error {
  override readonly name = 'SkillUseError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor(message: string) {
    super(message);
    this.safeMessage = message;
  }
}

/** What the skills commands act on: the cw home, the active session (its key and name), and the workspace skills are read from. */
export async function loadSkillContext(): Promise<{
  home: string;
  session: string;
  sessionName: string;
  workspace: string;
}> {
  const core = await import('@cw/core');
  const { cwHome } = await import('@cw/core/home');
  const home = cwHome();
  const config = await core.loadConfig(home);
  const workspace = await core.workspaceRoot(config.workspace);
  // Per-session state is found by the session's key (docs/cli.md, "Sessions").
  const { name, key } = await core.activeSession(home, process.cwd());
  return { home, session: key, sessionName: name, workspace };
}
