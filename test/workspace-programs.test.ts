// cw's own code runs nothing the workspace controls outside the sandbox (docs/security.md, "Which
// programs cw starts, and from where"). The BUILT CLI, a scripted model on 127.0.0.1, real git and
// real bubblewrap: a model under `--approval workspace` plants a git filter or a `bwrap` of its own,
// and the next `cw preview-request` and `cw send` must not run it. Where the sandbox would stop the
// model from planting something, the test plants it directly: the point is what cw itself starts.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSandboxProgram } from '@cw/core';
import { FAKE_KEY, sessionFile } from './support/cw-fixture.js';
import { needBubblewrap } from './support/require-bubblewrap.js';
import { testGit } from './support/test-git.js';
import { type ScriptedCall, type ScriptedModel, useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_PLANTED_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
const hasGit = spawnSync('git', ['--version']).status === 0;

function git(cwd: string, ...args: string[]): void {
  testGit(cwd, '-c', 'protocol.file.allow=always', ...args);
}

const shell = (id: string, command: string): ScriptedCall => ({
  id,
  name: 'shell',
  arguments: JSON.stringify({ command }),
});

/** A workspace that is a git repository with one commit, a marker path outside it, and a HOME. */
async function makeRepository(): Promise<{ base: string; ws: string; marker: string; userHome: string }> {
  const base = await models.folder('cw-planted-');
  const ws = join(base, 'ws');
  const userHome = join(base, 'home');
  await mkdir(ws, { recursive: true });
  await mkdir(userHome);
  git(ws, 'init', '-q', '-b', 'main');
  await writeFile(join(ws, 'a.txt'), 'tracked\n');
  git(ws, 'add', 'a.txt');
  git(ws, 'commit', '-q', '-m', 'first');
  return { base, ws, marker: join(base, 'marker'), userHome };
}

// The filter dumps the environment it was started with: the route key among it, had cw run it.
const filterCommand = (marker: string): string => `sh -c "env > ${marker}; cat"`;

/** Plants the filter (and an fsmonitor hook) into a git folder's config and makes a tracked file look changed. */
async function plantFilter(gitDir: string, ws: string, marker: string): Promise<void> {
  git(gitDir, '--git-dir', gitDir, 'config', 'filter.p.clean', filterCommand(marker));
  git(gitDir, '--git-dir', gitDir, 'config', 'core.fsmonitor', `sh -c 'env > ${marker}'`);
  await mkdir(join(gitDir, 'info'), { recursive: true });
  await writeFile(join(gitDir, 'info', 'attributes'), '* filter=p\n');
  await touch(join(ws, 'a.txt'));
}

async function touch(file: string): Promise<void> {
  const later = new Date(Date.now() + 60_000);
  await utimes(file, later, later);
}

/** `cw preview-request` then `cw send` in the workspace; neither may run what was planted. */
async function previewAndSend(options: {
  ws: string;
  marker: string;
  userHome: string;
  model?: ScriptedModel;
  extraEnv?: Record<string, string>;
  branch?: string;
}): Promise<{ home: string; model: ScriptedModel }> {
  const model = options.model ?? (await models.model('chat-completions', { reply: { text: 'ok' } }));
  const home = await models.home(model, { workspace: options.ws, approval: 'workspace' });
  const env = models.envFor(home, { HOME: options.userHome, ...options.extraEnv });
  const preview = await runCwChild(['preview-request', 'json', '--prompt', 'look'], env, { cwd: options.ws });
  expect(preview.code, preview.stderr).toBe(0);
  expect(existsSync(options.marker), 'cw preview-request ran a program the workspace planted').toBe(false);
  const sent = await runCwChild(['send', '--prompt', 'look'], env, { cwd: options.ws });
  expect(sent.code, sent.stderr).toBe(0);
  expect(existsSync(options.marker), 'cw send ran a program the workspace planted').toBe(false);
  // The turn context did read the repository: its branch leads the message sent.
  if (options.branch !== undefined) expect(model.requests[0]?.view.raw).toContain(`git branch: ${options.branch}`);
  expect(preview.stdout + sent.stdout + sent.stderr).not.toContain(FAKE_KEY);
  return { home, model };
}

describe.skipIf(!hasGit)('a git filter the model planted is not run by cw', () => {
  it('the model moves .git aside and plants a clean filter through the shell tool; preview and send do not run it', async (context) => {
    needBubblewrap(context);
    const { ws, marker, userHome } = await makeRepository();
    const payload = [
      'mv .git .git.old',
      'mkdir .git',
      'cp -a .git.old/. .git/',
      `git config filter.p.clean '${filterCommand(marker)}'`,
      "echo '* filter=p' >> .git/info/attributes",
      'touch a.txt',
    ].join(' && ');
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [shell('plant', payload)] } },
      { reply: { text: 'planted' } },
    );
    const home = await models.home(model, { workspace: ws, approval: 'workspace' });
    const planting = await runCwChild(['send', '--prompt', 'go'], models.envFor(home, { HOME: userHome }), { cwd: ws });
    expect(planting.code, planting.stderr).toBe(0);
    expect(model.problems).toEqual([]);
    // Whatever the sandbox let through, the repository now carries the filter: planted by the test
    // where the sandbox refused, since what is checked is cw's own turn context.
    const session = await readFile(await sessionFile(home), 'utf8');
    expect(session).toContain('plant');
    const config = await readFile(join(ws, '.git', 'config'), 'utf8').catch(() => '');
    if (!config.includes('filter')) await plantFilter(join(ws, '.git'), ws, marker);
    else await touch(join(ws, 'a.txt'));
    expect(existsSync(marker)).toBe(false);
    await previewAndSend({ ws, marker, userHome, branch: 'main' });
  });

  it('a .git file whose gitdir points at a repository with the filter', async () => {
    const { base, ws, marker, userHome } = await makeRepository();
    const elsewhere = join(base, 'elsewhere.git');
    await rename(join(ws, '.git'), elsewhere);
    await writeFile(join(ws, '.git'), `gitdir: ${elsewhere}\n`);
    await plantFilter(elsewhere, ws, marker);
    await previewAndSend({ ws, marker, userHome, branch: 'main' });
  });

  it('a .git folder whose commondir names a repository with the filter', async () => {
    const { base, ws, marker, userHome } = await makeRepository();
    const common = join(base, 'common.git');
    await rename(join(ws, '.git'), common);
    await mkdir(join(ws, '.git'));
    for (const file of ['HEAD', 'index']) await writeFile(join(ws, '.git', file), await readFile(join(common, file)));
    await writeFile(join(ws, '.git', 'commondir'), `${common}\n`);
    await plantFilter(common, ws, marker);
    await previewAndSend({ ws, marker, userHome, branch: 'main' });
  });

  it('a submodule checkout whose .git/modules/*/config holds the filter', async () => {
    const { base, ws: library, marker, userHome } = await makeRepository();
    const outer = join(base, 'outer');
    await mkdir(outer);
    git(outer, 'init', '-q', '-b', 'main');
    git(outer, 'submodule', '-q', 'add', library, 'sub');
    git(outer, 'commit', '-q', '-m', 'with a submodule');
    const ws = join(outer, 'sub');
    await plantFilter(join(outer, '.git', 'modules', 'sub'), ws, marker);
    await previewAndSend({ ws, marker, userHome, branch: 'main' });
  });

  it('git init where there was no repository, with a filter in its config', async () => {
    const base = await models.folder('cw-planted-');
    const ws = join(base, 'ws');
    const userHome = join(base, 'home');
    const marker = join(base, 'marker');
    await mkdir(ws, { recursive: true });
    await mkdir(userHome);
    await writeFile(join(ws, 'a.txt'), 'tracked\n');
    git(ws, 'init', '-q', '-b', 'main');
    git(ws, 'add', 'a.txt');
    await plantFilter(join(ws, '.git'), ws, marker);
    await previewAndSend({ ws, marker, userHome, branch: 'main' });
  });
});

describe('a bwrap the workspace planted on PATH is not run; the system one is', () => {
  it.for([
    { where: '.venv/bin', how: 'an activated virtualenv' },
    { where: 'node_modules/.bin', how: 'an npm script or npx' },
  ])('$where first on PATH, as $how puts it', async ({ where }, context) => {
    needBubblewrap(context);
    const base = await models.folder('cw-planted-');
    const ws = join(base, 'ws');
    const userHome = join(base, 'home');
    const marker = join(base, 'marker');
    const bin = join(ws, where);
    await mkdir(bin, { recursive: true });
    await mkdir(userHome);
    const system = findSandboxProgram(process.env, 'linux')?.file as string;
    // Runs the real one afterwards, so only the marker tells it was started.
    await writeFile(join(bin, 'bwrap'), `#!/bin/sh\nenv > ${marker}\nexec ${system} "$@"\n`);
    await chmod(join(bin, 'bwrap'), 0o755);
    const model = await models.model(
      'chat-completions',
      { reply: { calls: [shell('inside', 'echo "$HOME" && cat ~/.ssh/id_ed25519')] } },
      { reply: { text: 'done' } },
      { reply: { text: 'again' } },
    );
    await mkdir(join(userHome, '.ssh'));
    await writeFile(join(userHome, '.ssh', 'id_ed25519'), 'FAKE-SSH-KEY');
    const { home } = await previewAndSend({
      ws,
      marker,
      userHome,
      model,
      extraEnv: { PATH: `${bin}:${process.env['PATH'] ?? ''}` },
    });
    expect(model.problems).toEqual([]);
    // The command ran, confined: the real bubblewrap hid ~/.ssh.
    const session = await readFile(await sessionFile(home), 'utf8');
    expect(session).toContain('[sandbox bubblewrap:');
    expect(session).not.toContain('FAKE-SSH-KEY');
  });
});

describe('a hook started outside the sandbox is not looked up inside the workspace', () => {
  it('with the sandbox off, a bare hook name resolves past a planted .venv/bin copy to the one outside', async () => {
    const base = await models.folder('cw-planted-');
    const ws = join(base, 'ws');
    const userHome = join(base, 'home');
    const marker = join(base, 'marker');
    const planted = join(ws, '.venv', 'bin');
    const outside = join(base, 'bin');
    for (const folder of [planted, outside, userHome]) await mkdir(folder, { recursive: true });
    // Both answer "keep the prompt" (exit 0); only the planted one leaves the marker.
    await writeFile(join(planted, 'check-prompt'), `#!/bin/sh\nenv > ${marker}\ncat > /dev/null\n`);
    await writeFile(
      join(outside, 'check-prompt'),
      `#!/bin/sh\necho outside > ${join(base, 'outside-ran')}\ncat > /dev/null\n`,
    );
    for (const folder of [planted, outside]) await chmod(join(folder, 'check-prompt'), 0o755);
    const model = await models.model('chat-completions', { reply: { text: 'ok' } });
    const home = await models.home(model, {
      workspace: ws,
      sandbox: { mode: 'off' },
      hooks: { message_submit: [{ command: ['check-prompt'], timeout_ms: 10_000 }] },
    });
    const env = models.envFor(home, { HOME: userHome, PATH: `${planted}:${outside}:${process.env['PATH'] ?? ''}` });
    const sent = await runCwChild(['send', '--prompt', 'hello'], env, { cwd: ws });
    expect(sent.code, sent.stderr).toBe(0);
    expect(existsSync(marker), 'cw started the hook program the workspace planted').toBe(false);
    expect(existsSync(join(base, 'outside-ran'))).toBe(true);
  });
});

describe('cw preview-request starts no program', () => {
  it.skipIf(!hasGit)(
    'a git, bwrap and sh first on PATH are not run by preview, nor by a send that runs no tool',
    async () => {
      const { ws, marker, userHome } = await makeRepository();
      const planted = join(ws, '.venv', 'bin');
      await mkdir(planted, { recursive: true });
      for (const name of ['git', 'bwrap', 'sh']) {
        await writeFile(join(planted, name), `#!/bin/sh\necho ${name} >> ${marker}\n`);
        await chmod(join(planted, name), 0o755);
      }
      await touch(join(ws, 'a.txt'));
      await previewAndSend({
        ws,
        marker,
        userHome,
        branch: 'main',
        extraEnv: { PATH: `${planted}:${process.env['PATH'] ?? ''}` },
      });
    },
  );
});
