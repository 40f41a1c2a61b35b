// The user's own git stays theirs (docs/security.md): the BUILT CLI runs `cw send --approval workspace`
// against a scripted model on 127.0.0.1 whose shell calls try, in the shape of real attacks, to plant
// config that the user's next `git status` or `git commit` would run outside the sandbox. After each,
// the user's own git runs here, outside, and a marker the payload would write must be absent. Linux
// with bubblewrap on PATH; without it they are skipped with one line naming the package, and fail under
// CI (test/support/require-bubblewrap.ts).
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkSandbox } from '@cw/core';
import { FAKE_KEY } from './support/cw-fixture.js';
import { needBubblewrap } from './support/require-bubblewrap.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild, sessionMessages } from './support/spawn-cw.js';

const KEY_ENV = 'CW_SANDBOX_GIT_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

let base = '';
let upstream = '';
/** git's environment, outside and inside: a home of its own, no system config. */
let gitEnv: Record<string, string> = {};
let counter = 0;

beforeAll(async () => {
  base = await models.folder('cw-sandbox-git-');
  const userHome = join(base, 'home');
  await mkdir(userHome);
  await writeFile(
    join(userHome, '.gitconfig'),
    '[user]\n\tname = User\n\temail = user@example.com\n[init]\n\tdefaultBranch = main\n[protocol "file"]\n\tallow = always\n',
  );
  gitEnv = { HOME: userHome, GIT_CONFIG_NOSYSTEM: '1' };
  upstream = join(base, 'upstream');
  await mkdir(upstream);
  git(upstream, 'init', '-q');
  git(upstream, 'commit', '-q', '--allow-empty', '-m', 'upstream');
});

/** The user's own git, outside the sandbox. */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { PATH: process.env['PATH'] ?? '', ...gitEnv }, encoding: 'utf8' });
}

/** A fresh folder with a repository: one commit, a submodule `x` whose git folder is `.git/modules/x`. */
async function repository(): Promise<{ ws: string; marks: string }> {
  counter += 1;
  const ws = join(base, `ws${counter}`);
  const marks = join(base, `marks${counter}`);
  await mkdir(ws);
  await mkdir(marks);
  git(ws, 'init', '-q');
  await writeFile(join(ws, 'a.txt'), 'one\n');
  git(ws, 'add', 'a.txt');
  git(ws, 'submodule', '--quiet', 'add', upstream, 'x');
  git(ws, 'commit', '-q', '-m', 'one');
  return { ws, marks };
}

/** A config whose fsmonitor (run by every `git status`) writes `marker`. */
const fsmonitorConfig = (marker: string): string =>
  `[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch ${marker}; echo"\\n`;

/** Runs one `cw send` whose model issues `command` through the shell tool; returns that call's result. */
async function attack(ws: string, command: string): Promise<{ status: string; content: string }> {
  const model = await models.model(
    'chat-completions',
    { reply: { calls: [{ id: 'attack', name: 'shell', arguments: JSON.stringify({ command }) }] } },
    { reply: { text: 'done' } },
  );
  const home = await models.home(model, { workspace: ws, approval: 'workspace' });
  const run = await runCwChild(['send', '--prompt', 'go'], models.envFor(home, gitEnv));
  expect(run.code, run.stderr).toBe(0);
  expect(model.problems).toEqual([]);
  const result = (await sessionMessages(home)).find((message) => message['tool_call_id'] === 'attack');
  return { status: String(result?.['status']), content: String(result?.['content']) };
}

/** Runs the user's git and says whether it succeeded; what it printed does not matter here. */
function tryGit(cwd: string, ...args: string[]): boolean {
  try {
    git(cwd, ...args);
    return true;
  } catch {
    return false;
  }
}

/** The user's next `git status` and a normal `git commit` in `cwd`: nothing planted ran, and the commit works. */
async function userCommits(cwd: string, marks: string): Promise<void> {
  tryGit(cwd, 'status', '--short');
  await writeFile(join(cwd, 'a.txt'), `changed by the user ${Date.now()}\n`);
  const committed = tryGit(cwd, 'add', 'a.txt') && tryGit(cwd, 'commit', '-q', '-m', 'the user commits');
  expect(await readdir(marks), "what the model planted ran in the user's own git").toEqual([]);
  expect(committed).toBe(true);
  expect(git(cwd, 'log', '-1', '--format=%s').trim()).toBe('the user commits');
  // Committed, index included (what the model left in the workspace may stay untracked).
  expect(git(cwd, 'status', '--short', '--untracked-files=no')).toBe('');
}

/** The model sees each refusal as the command's own error line, and one sandbox line. */
function expectRefused(result: { status: string; content: string }): void {
  expect(result.status).toBe('error');
  expect(result.content.split('\n').filter((line) => line.startsWith('[sandbox bubblewrap:'))).toHaveLength(1);
}

describe("under workspace, a command cannot plant what the user's own git runs", () => {
  it('.git moved aside and recreated with a clean filter, an attribute and an fsmonitor', async (context) => {
    needBubblewrap(context);
    const { ws, marks } = await repository();
    const result = await attack(
      ws,
      [
        'mv .git .git.old',
        'mkdir .git',
        'cp -a .git.old/. .git/',
        `git config filter.p.clean "sh -c 'touch ${marks}/filter; cat'"`,
        "echo '* filter=p' >> .git/info/attributes",
        `git config core.fsmonitor "touch ${marks}/fsmonitor; echo"`,
      ].join('; '),
    );
    await userCommits(ws, marks);
    await expect(stat(join(ws, '.git.old'))).rejects.toThrow();
    expectRefused(result);
    expect(result.content).toContain('.git cannot be renamed, removed or replaced');
  });

  it('a new .git/commondir pointing at a planted common folder with config', async (context) => {
    needBubblewrap(context);
    const { ws, marks } = await repository();
    await attack(
      ws,
      [
        'mkdir -p .planted',
        'cp -r .git/objects .git/refs .planted/',
        `printf '${fsmonitorConfig(`${marks}/commondir`)}' > .planted/config`,
        'echo "$PWD/.planted" > .git/commondir',
        'git status --short',
      ].join('; '),
    );
    await userCommits(ws, marks);
    await expect(stat(join(ws, '.git', 'commondir'))).rejects.toThrow();
  });

  it('a .git file (gitdir) replacing the folder', async (context) => {
    needBubblewrap(context);
    const { ws, marks } = await repository();
    const result = await attack(
      ws,
      [
        'mv .git .git.old',
        'cp -a .git.old .gd',
        "printf 'gitdir: .gd\\n' > .git",
        `git config core.fsmonitor "touch ${marks}/gitfile; echo"`,
      ].join('; '),
    );
    await userCommits(ws, marks);
    expect((await stat(join(ws, '.git'))).isDirectory()).toBe(true);
    expectRefused(result);
  });

  it("a submodule's config in .git/modules/x", async (context) => {
    needBubblewrap(context);
    const { ws, marks } = await repository();
    const result = await attack(
      ws,
      `git config -f .git/modules/x/config core.fsmonitor "touch ${marks}/modules; echo"`,
    );
    await userCommits(ws, marks);
    expectRefused(result);
    expect(result.content).toContain('a write inside .git was refused');
  });

  it("a submodule's .git file pointed at a planted copy of its git folder", async (context) => {
    needBubblewrap(context);
    const { ws, marks } = await repository();
    const result = await attack(
      ws,
      [
        'cp -r .git/modules/x .planted-x',
        'git config -f .planted-x/config --unset core.worktree',
        `git config -f .planted-x/config core.fsmonitor "touch ${marks}/submodule-gitfile; echo"`,
        "printf 'gitdir: ../.planted-x\\n' > x/.git",
      ].join('; '),
    );
    await userCommits(ws, marks);
    expect(await readFile(join(ws, 'x', '.git'), 'utf8')).toBe('gitdir: ../.git/modules/x\n');
    expectRefused(result);
  });

  it('a repository made where a submodule is not checked out', async (context) => {
    needBubblewrap(context);
    const { ws, marks } = await repository();
    git(ws, 'submodule', '--quiet', 'deinit', '-f', 'x');
    const result = await attack(
      ws,
      ['git init -q x', `git -C x config core.fsmonitor "touch ${marks}/unpopulated; echo"`].join('; '),
    );
    await userCommits(ws, marks);
    expect(await readdir(join(ws, 'x'))).toEqual([]);
    expectRefused(result);
  });

  it('a repository the command made, added to the index as a submodule', async (context) => {
    needBubblewrap(context);
    const { ws, marks } = await repository();
    const result = await attack(
      ws,
      [
        'mkdir nested && cd nested && git init -q && git commit -q --allow-empty -m nested',
        `git config core.fsmonitor "touch ${marks}/nested; echo"`,
        'cd .. && git add nested && git ls-files --stage nested',
      ].join('; '),
    );
    // Inside, the index had it; the user's index never gets it.
    expect(result.content).toMatch(/^160000 /m);
    await userCommits(ws, marks);
    expect(git(ws, 'ls-files', '--stage', 'nested')).toBe('');
  });

  it("a linked worktree's commondir in .git/worktrees", async (context) => {
    needBubblewrap(context);
    const { ws, marks } = await repository();
    const linked = join(base, `linked${counter}`);
    git(ws, 'worktree', 'add', '-q', linked);
    const result = await attack(
      ws,
      [
        'mkdir -p .planted',
        'cp -r .git/objects .git/refs .planted/',
        `printf '${fsmonitorConfig(`${marks}/worktrees`)}' > .planted/config`,
        `echo "$PWD/.planted" > .git/worktrees/linked${counter}/commondir`,
      ].join('; '),
    );
    await userCommits(linked, marks);
    await userCommits(ws, marks);
    expectRefused(result);
  });

  it('git init where there is no repository, and cw leaves no .git behind', async (context) => {
    needBubblewrap(context);
    counter += 1;
    const ws = join(base, `bare${counter}`);
    const marks = join(base, `marks${counter}`);
    await mkdir(ws);
    await mkdir(marks);
    await writeFile(join(ws, 'a.txt'), 'one\n');
    const result = await attack(
      ws,
      [
        "echo '* filter=p' > .gitattributes",
        'git init -q',
        `git config filter.p.clean "sh -c 'touch ${marks}/init-filter; cat'"`,
        `git config core.fsmonitor "touch ${marks}/init; echo"`,
      ].join('; '),
    );
    // The user's next git status finds no repository, so nothing the model configured can run.
    const found = tryGit(ws, 'status', '--short');
    expect(await readdir(marks), "what the model planted ran in the user's own git").toEqual([]);
    expect(found).toBe(false);
    await expect(stat(join(ws, '.git'))).rejects.toThrow();
    git(ws, 'init', '-q');
    await userCommits(ws, marks);
    expectRefused(result);
  });
});

describe('a .git that is a symbolic link', () => {
  it('runs no command, and cw sandbox check says what to fix in one line and exits 1', async (context) => {
    needBubblewrap(context);
    const { ws } = await repository();
    await rename(join(ws, '.git'), join(ws, 'real-git'));
    await symlink('real-git', join(ws, '.git'));
    const result = await attack(ws, 'echo ran > ran.txt');
    expect(result.status).toBe('error');
    expect(result.content).toContain('GitFolderLinkError');
    await expect(stat(join(ws, 'ran.txt'))).rejects.toThrow();

    const model = await models.model('chat-completions');
    const home = await models.home(model, { workspace: ws });
    const run = await runCwChild(['sandbox', 'check'], models.envFor(home, gitEnv));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^cw: the workspace's \.git is a symbolic link[^\n]*replace the link[^\n]*\n$/);
    expect(run.stderr).not.toContain(base);
  });
});

describe('inside the sandbox, git still commits', () => {
  it("the model's commit reaches the user's repository, index and all", async (context) => {
    needBubblewrap(context);
    const { ws, marks } = await repository();
    const result = await attack(ws, 'echo two > b.txt && git add b.txt && git commit -q -m "the model commits"');
    expect(result.status, result.content).toBe('ok');
    expect(git(ws, 'log', '-1', '--format=%s').trim()).toBe('the model commits');
    expect(git(ws, 'status', '--short')).toBe('');
    expect((await readdir(join(ws, '.git'))).filter((name) => name.endsWith('.lock'))).toEqual([]);
    await userCommits(ws, marks);
  });
});

describe('cw sandbox check', () => {
  it('shows from inside that .git stays the user’s, and exits 0 when it does', async (context) => {
    needBubblewrap(context);
    const { ws } = await repository();
    const model = await models.model('chat-completions');
    const home = await models.home(model, { workspace: ws });
    const run = await runCwChild(['sandbox', 'check', '--json'], models.envFor(home, gitEnv));
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const report = JSON.parse(run.stdout) as { checks: { what: string; found: string }[]; failed: number };
    expect(Object.fromEntries(report.checks.map((row) => [row.what, row.found]))).toMatchObject({
      '.git/config': 'read-only',
      '.git/hooks': 'read-only',
      '.git/info': 'read-only',
      '.git/commondir (new)': 'refused',
      '.git (rename)': 'refused',
      '.git/objects': 'writable',
      '.git/refs': 'writable',
    });
    expect(report.failed).toBe(0);
    expect(run.stdout).not.toContain(base);
    await expect(stat(join(ws, '.git', 'commondir'))).rejects.toThrow();

    // The same probe run with no sandbox at all finds the promise broken, row by row.
    const unguarded: Parameters<typeof checkSandbox>[0] = {
      kind: 'bubblewrap',
      file: '/usr/bin/bwrap',
      limits: null,
      network: 'on',
      hidden: [],
      readOnly: [],
      wrap: async (argv, options) => ({
        file: argv[0] ?? '',
        args: argv.slice(1),
        env: { ...options.env, TMPDIR: base },
        stdio: [],
        attach: () => {},
        release: async () => {},
      }),
      reason: () => '',
      close: async () => {},
    };
    const broken = await checkSandbox(unguarded, {
      workspace: ws,
      home: join(base, 'home'),
      cwHome: join(base, 'no-cw-home'),
      denyRead: [],
      env: { PATH: process.env['PATH'] ?? '' },
      config: { routes: {} },
    });
    expect(broken.filter((row) => row.what.startsWith('.git') && !row.ok).map((row) => row.what)).toEqual([
      '.git/config',
      '.git/hooks',
      '.git/info',
      '.git/commondir (new)',
      '.git (rename)',
    ]);
    await expect(stat(join(ws, '.git', 'commondir'))).rejects.toThrow();

    const bare = join(base, `check-bare${counter}`);
    await mkdir(bare);
    const bareHome = await models.home(model, { workspace: bare });
    const none = await runCwChild(['sandbox', 'check', '--json'], models.envFor(bareHome, gitEnv));
    expect(none.code, none.stderr + none.stdout).toBe(0);
    const rows = (JSON.parse(none.stdout) as { checks: { what: string; found: string }[] }).checks;
    expect(rows.find((row) => row.what === '.git (git init here)')?.found).toBe('refused');
    expect(await readdir(bare)).toEqual([]);

    // A linked worktree: its `.git` is a file.
    const linked = join(base, `check-linked${counter}`);
    git(ws, 'worktree', 'add', '-q', linked);
    const linkedHome = await models.home(model, { workspace: linked });
    const file = await runCwChild(['sandbox', 'check', '--json'], models.envFor(linkedHome, gitEnv));
    expect(file.code, file.stderr + file.stdout).toBe(0);
    const fileRows = (JSON.parse(file.stdout) as { checks: { what: string; found: string }[] }).checks;
    expect(Object.fromEntries(fileRows.map((row) => [row.what, row.found]))).toMatchObject({
      '.git (a gitdir file)': 'read-only',
      '.git (rename)': 'refused',
    });
  });
});
