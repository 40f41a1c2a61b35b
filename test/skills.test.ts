// Skills end to end (docs/skills.md): the BUILT CLI runs in a temp repository with SKILL.md folders in
// the cw home and the workspace. `cw skills use` sets a pending skill; preview shows the wrapped
// request and never consumes it (the home stays byte-identical); the send that goes out wraps its
// prompt, exactly as previewed, and clears it. A broken pending skill is prompt-resolution-failed in
// preview and the same error on cw send, with nothing sent or saved.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_KEY, sessionsFolder } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { previewFromWorkspace } from './support/preview-from-workspace.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild, sessionMessages } from './support/spawn-cw.js';

const KEY_ENV = 'CW_SKILL_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

async function writeSkill(root: string, name: string, text: string): Promise<void> {
  await mkdir(join(root, name), { recursive: true });
  await writeFile(join(root, name, 'SKILL.md'), text);
}

const skillText = (name: string, description: string, body: string): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;

/** A repository with a workspace skill, and a home with two skills, one of which the workspace overrides. */
async function setUp(steps: Parameters<typeof models.model>[1][] = []) {
  const ws = await models.folder('cw-skill-ws-');
  await mkdir(join(ws, '.git'));
  const model = await models.model('chat-completions', ...steps);
  // Messages are checked as the skill wraps them: no turn-context block in front.
  const home = await models.home(model, { context: { turn_context: false } });
  await writeSkill(join(home, 'skills'), 'review', skillText('review', 'Home review.', 'Review from home.\n'));
  await writeSkill(join(home, 'skills'), 'tidy', skillText('tidy', 'Tidies code.', 'Keep it tidy.\n'));
  await writeSkill(
    join(ws, '.cw', 'skills'),
    'review',
    skillText('review', 'Reviews a diff; api_key=sk-live-abcdefghijklmnop', 'Look for missing tests.\n'),
  );
  await writeSkill(join(ws, '.cw', 'skills'), 'broken', '---\nname: broken\n---\nno description\n');
  return { ws, model, home, env: models.envFor(home) };
}

const preview = previewFromWorkspace;

function lastUserText(body: Record<string, unknown>): string {
  const messages = body['messages'] as { role: string; content: unknown }[];
  return String(messages.filter((message) => message.role === 'user').at(-1)?.content);
}

describe('cw skills', () => {
  it('lists home and workspace skills, the workspace overriding the home, broken ones with their problem', async () => {
    const { ws, home, env } = await setUp();
    const before = await homeBytes(home);
    const json = await runCwChild(['skills', 'list', '--json'], env, { cwd: ws });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      session: 'default',
      pending: null,
      skills: [
        {
          name: 'broken',
          source: 'workspace',
          status: 'broken',
          description: null,
          problem: 'SKILL.md front matter has no description',
        },
        {
          name: 'review',
          source: 'workspace',
          status: 'ok',
          description: expect.stringMatching(/^Reviews a diff; api_key=/),
          problem: null,
        },
        { name: 'tidy', source: 'home', status: 'ok', description: 'Tidies code.', problem: null },
      ],
    });
    // The description's secret-shaped value is never printed.
    expect(json.stdout).not.toContain('sk-live-abcdefghijklmnop');
    const human = await runCwChild(['skills', 'list'], env, { cwd: ws });
    expect(human.stdout).toContain('review  workspace  Reviews a diff;');
    expect(human.stdout).toContain('broken: SKILL.md front matter has no description');
    expect(await homeBytes(home)).toEqual(before);
  });

  it('a pending skill wraps the next prompt: previewed without being consumed, sent as previewed, then cleared', async () => {
    const { ws, model, home, env } = await setUp([{ reply: { text: 'reviewed' } }, { reply: { text: 'plain' } }]);
    const plain = await preview(home, env, ws, 'check my change');
    expect(plain.session.pending_skill).toBeNull();

    const use = await runCwChild(['skills', 'use', 'review'], env, { cwd: ws });
    expect(use.code, use.stderr).toBe(0);
    expect(use.stdout).toBe('Skill review (workspace) will wrap the next prompt of session default.\n');
    const listed = JSON.parse((await runCwChild(['skills', 'list', '--json'], env, { cwd: ws })).stdout) as {
      pending: string;
    };
    expect(listed.pending).toBe('review');

    // Previewed twice: the skill is still pending after each, and the request is the same.
    const first = await preview(home, env, ws, 'check my change');
    const second = await preview(home, env, ws, 'check my change');
    expect(first.session.pending_skill).toBe('review');
    if (!('exact' in first.body) || !('exact' in plain.body) || !('exact' in second.body))
      throw new Error('body unavailable');
    expect(first.body.exact.body_sha256).not.toBe(plain.body.exact.body_sha256);
    expect(second.body.exact.body_sha256).toBe(first.body.exact.body_sha256);

    const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', 'check my change'], env, { cwd: ws });
    expect(sent.code, sent.stderr).toBe(0);
    expect(model.requests[0]?.canonicalSha256).toBe(first.body.exact.body_sha256);
    const wrapped = '<skill name="review">\nLook for missing tests.\n</skill>\n\ncheck my change';
    expect(lastUserText(model.requests[0]?.view.body ?? {})).toBe(wrapped);
    expect((await sessionMessages(home))[0]).toEqual({ role: 'user', content: wrapped });

    // Used up: the next prompt goes as typed.
    const after = await preview(home, env, ws, 'again');
    expect(after.session.pending_skill).toBeNull();
    expect((await runCwChild(['send', '--no-tool-runs', '--prompt', 'again'], env, { cwd: ws })).code).toBe(0);
    expect(lastUserText(model.requests[1]?.view.body ?? {})).toBe('again');
    expect(model.problems).toEqual([]);
  });

  it('a failed send keeps the skill pending', async () => {
    const { ws, model, home, env } = await setUp();
    expect((await runCwChild(['skills', 'use', 'tidy'], env, { cwd: ws })).code).toBe(0);
    // The scripted model has no step for this request, so the turn fails.
    const sent = await runCwChild(['send', '--no-tool-runs', '--max-retries', '0', '--prompt', 'go'], env, { cwd: ws });
    expect(sent.code).toBe(1);
    expect(model.requests).toHaveLength(0);
    await expect(readFile(join(await sessionsFolder(home, ws), 'default.json'), 'utf8')).rejects.toThrow('ENOENT');
    expect(JSON.parse(await readFile(join(await sessionsFolder(home, ws), 'default.skill.json'), 'utf8'))).toEqual({
      version: 1,
      name: 'tidy',
    });
  });

  it('a pending skill that broke is prompt-resolution-failed in preview and the same error on send', async () => {
    const { ws, model, home, env } = await setUp();
    expect((await runCwChild(['skills', 'use', 'tidy'], env, { cwd: ws })).code).toBe(0);
    await writeFile(join(home, 'skills', 'tidy', 'SKILL.md'), '---\nname: tidy\ndescription: [unclosed\n');
    const manifest = await preview(home, env, ws, 'go');
    for (const section of ['route', 'tools', 'body'] as const) {
      expect(manifest[section]).toEqual({
        unavailable: {
          reason: 'prompt-resolution-failed',
          detail: 'the pending skill tidy: SKILL.md front matter is not closed by a --- line',
        },
      });
    }
    const before = await homeBytes(home);
    const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', 'go'], env, { cwd: ws });
    expect(sent.code).toBe(1);
    expect(sent.stderr).toContain('prompt-resolution-failed');
    expect(sent.stderr).toContain('the pending skill tidy');
    expect(model.requests).toHaveLength(0);
    expect(await homeBytes(home)).toEqual(before);

    // A skill that is gone, and a pending file that is not JSON, fail the same way.
    await writeFile(join(await sessionsFolder(home, ws), 'default.skill.json'), '{"version": 1, "name": "gone"}\n');
    expect((await preview(home, env, ws, 'go')).body).toEqual({
      unavailable: {
        reason: 'prompt-resolution-failed',
        detail: 'the pending skill gone is not installed; cw skills clear removes it',
      },
    });
    await writeFile(join(await sessionsFolder(home, ws), 'default.skill.json'), '{"version": 1, "na');
    expect((await preview(home, env, ws, 'go')).body).toMatchObject({
      unavailable: { reason: 'prompt-resolution-failed' },
    });
    const cleared = await runCwChild(['skills', 'clear'], env, { cwd: ws });
    expect(cleared.stdout).toBe('Cleared the pending skill of session default.\n');
    expect('exact' in (await preview(home, env, ws, 'go')).body).toBe(true);
  });

  it('use refuses an unknown, broken or malformed name with one line and writes nothing', async () => {
    const { ws, home, env } = await setUp();
    const before = await homeBytes(home);
    for (const [name, words] of [
      ['nope', 'no skill nope is installed'],
      ['broken', 'skill broken cannot be used: SKILL.md front matter has no description'],
      ['sk-live-abcdefghijklmnop/../x', 'that is not a skill name'],
    ] as const) {
      const run = await runCwChild(['skills', 'use', name], env, { cwd: ws });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(words);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).not.toContain('sk-live');
    }
    expect(await homeBytes(home)).toEqual(before);
  });
});
