// AGENTS.md layers and the turn-context block end to end (docs/project-context.md): the BUILT CLI runs
// in a working folder inside a temp repository, previews, then sends to a scripted model on 127.0.0.1;
// the system text the model received holds each layer in order and hashes to what preview showed, and
// the turn context leads the new user message, outside the system prompt.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_BASE_PROMPT, type RequestManifest } from '@cw/core';
import { OUTBOUND_SECRET_MARKER } from '../core/src/redaction/outbound-secrets.js';
import { FAKE_KEY } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild } from './support/spawn-cw.js';

const KEY_ENV = 'CW_CONTEXT_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
const PROMPT = 'what are the rules here?';

/** A repository on branch `feature-x` with AGENTS.md at its root and in pkg/, run from pkg/src. */
async function makeRepository(): Promise<{ ws: string; cwd: string }> {
  const ws = await models.folder('cw-context-');
  await mkdir(join(ws, '.git'), { recursive: true });
  await writeFile(join(ws, '.git', 'HEAD'), 'ref: refs/heads/feature-x\n');
  await mkdir(join(ws, 'pkg', 'src'), { recursive: true });
  await writeFile(join(ws, 'AGENTS.md'), 'Root rule: run npm test before you answer.\n');
  await writeFile(join(ws, 'pkg', 'AGENTS.md'), 'Package rule: never edit generated files.\n');
  return { ws, cwd: join(ws, 'pkg', 'src') };
}

function systemTextOf(body: Record<string, unknown>): string {
  const messages = body['messages'] as { role: string; content: string }[];
  return messages
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('');
}

function userTexts(body: Record<string, unknown>): string[] {
  const messages = body['messages'] as { role: string; content: string }[];
  return messages.filter((message) => message.role === 'user').map((message) => message.content);
}

function bodyOf(manifest: RequestManifest) {
  if (!('exact' in manifest.body)) throw new Error(`body unavailable: ${JSON.stringify(manifest.body)}`);
  return manifest.body.exact;
}

describe('project instructions and turn context', () => {
  it('layers AGENTS.md from the cw home and the repository into the system prompt, and send sends it', async () => {
    const { cwd } = await makeRepository();
    const model = await models.model('chat-completions', { reply: { text: 'Run the tests first.' } });
    const home = await models.home(model);
    await writeFile(join(home, 'AGENTS.md'), 'Home rule: answer briefly.\n');
    const env = models.envFor(home);

    const before = await homeBytes(home);
    const preview = await runCwChild(['preview-request', 'json', '--prompt', PROMPT], env, { cwd });
    expect(preview.stderr).toBe('');
    expect(preview.code).toBe(0);
    expect(await homeBytes(home)).toEqual(before);
    const body = bodyOf(JSON.parse(preview.stdout) as RequestManifest);
    expect(body.system_prompt.assembly).toBe('base-with-configured-layers');
    expect(body.system_prompt.layers.map((layer) => [layer.layer_kind, layer.folder_depth])).toEqual([
      ['base', 0],
      ['home-instructions', 0],
      ['workspace-instructions', 0],
      ['workspace-instructions', 1],
    ]);
    // Sizes and hashes only: no layer text in the manifest.
    expect(preview.stdout).not.toContain('Root rule');
    expect(preview.stdout).not.toContain('Home rule');

    const base = await runCwChild(['preview-request', 'base-prompt'], env, { cwd });
    expect(base.stdout).toBe(BUNDLED_BASE_PROMPT);

    const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', PROMPT], env, { cwd });
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(model.problems).toEqual([]);
    const [request] = model.requests;
    expect(request?.canonicalSha256).toBe(body.body_sha256);
    const system = systemTextOf(request?.view.body ?? {});
    expect(system.startsWith(BUNDLED_BASE_PROMPT)).toBe(true);
    const order = ['Home rule', 'Root rule', 'Package rule'].map((text) => system.indexOf(text));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The layer sizes add up to the system text exactly.
    const total = body.system_prompt.layers.reduce((sum, layer) => sum + layer.layer_bytes, 0);
    expect(total).toBe(Buffer.byteLength(system, 'utf8'));
  });

  it('sends the base prompt alone when there is no AGENTS.md', async () => {
    const ws = await models.folder('cw-context-');
    await mkdir(join(ws, '.git'));
    const model = await models.model('chat-completions', { reply: { text: 'ok' } });
    const home = await models.home(model);
    const env = models.envFor(home);
    const preview = await runCwChild(['preview-request', 'json', '--prompt', PROMPT], env, { cwd: ws });
    const body = bodyOf(JSON.parse(preview.stdout) as RequestManifest);
    expect(body.system_prompt.assembly).toBe('base-only');
    expect(body.system_prompt.layers.map((layer) => layer.layer_kind)).toEqual(['base']);
    const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', PROMPT], env, { cwd: ws });
    expect(sent.code).toBe(0);
    expect(systemTextOf(model.requests[0]?.view.body ?? {})).toBe(BUNDLED_BASE_PROMPT);
  });

  it('leads the new user message with the turn context by default, stores it, and keeps the prefix byte-stable across days', async () => {
    const { ws, cwd } = await makeRepository();
    const ok = { reply: { text: 'ok' } };
    const model = await models.model('chat-completions', ok, ok, ok);
    const home = await models.home(model, { context: { project_instructions: false } });
    const env = models.envFor(home, { CW_DATE: '2026-03-04' });
    const first = await runCwChild(['preview-request', 'json', '--prompt', PROMPT], env, { cwd });
    const second = await runCwChild(['preview-request', 'json', '--prompt', PROMPT], env, { cwd });
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const body = bodyOf(JSON.parse(first.stdout) as RequestManifest);
    // Never in the system prompt: that is what keeps the cached prefix in place.
    expect(body.system_prompt.assembly).toBe('base-only');
    expect(body.turn_context.status).toBe('sent');

    const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', PROMPT], env, { cwd });
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(model.requests[0]?.canonicalSha256).toBe(body.body_sha256);
    const firstBody = model.requests[0]?.view.body ?? {};
    expect(systemTextOf(firstBody)).toBe(BUNDLED_BASE_PROMPT);
    const block =
      `<turn-context>\nworking folder: ${basename(ws)}/pkg/src\n` +
      // The fake repository has no objects, so git cannot say whether files changed.
      'git branch: feature-x (changes not known)\n' +
      `os: ${process.platform}\ndate: 2026-03-04\n</turn-context>\n\n`;
    expect(userTexts(firstBody)).toEqual([block + PROMPT]);
    expect(body.turn_context.context_bytes).toBe(Buffer.byteLength(block, 'utf8'));
    expect(body.turn_context.context_sha256).toBe(createHash('sha256').update(block).digest('hex'));
    // The workspace's own name and the path inside it; nothing above the workspace.
    expect(JSON.stringify(firstBody)).not.toContain(dirname(ws));

    // Same day, same folder: the stored block already says it, so the next message does not repeat it.
    const again = await runCwChild(['preview-request', 'json', '--prompt', 'and now?'], env, { cwd });
    expect(bodyOf(JSON.parse(again.stdout) as RequestManifest).turn_context.status).toBe('unchanged');
    expect((await runCwChild(['send', '--no-tool-runs', '--prompt', 'and now?'], env, { cwd })).code).toBe(0);
    const secondBody = model.requests[1]?.view.body ?? {};
    expect(userTexts(secondBody)).toEqual([block + PROMPT, 'and now?']);

    // The next day: a new block leads the new message; the system text and the history before it are the same bytes.
    const nextDay = { ...env, CW_DATE: '2026-03-05' };
    expect((await runCwChild(['send', '--no-tool-runs', '--prompt', 'one more'], nextDay, { cwd })).code).toBe(0);
    const thirdBody = model.requests[2]?.view.body ?? {};
    const secondMessages = secondBody['messages'] as unknown[];
    const thirdMessages = thirdBody['messages'] as unknown[];
    expect(JSON.stringify(thirdMessages.slice(0, secondMessages.length + 1))).toBe(
      JSON.stringify([...secondMessages, { role: 'assistant', content: 'ok' }]),
    );
    expect(userTexts(thirdBody).at(-1)).toBe(`${block.replace('2026-03-04', '2026-03-05')}one more`);

    const bad = await runCwChild(['preview-request', '--prompt', PROMPT], { ...env, CW_DATE: '2026-02-30' }, { cwd });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe("cw: CW_DATE must be a date written YYYY-MM-DD; unset it to use today's date\n");
  });

  it('sends no turn context when config turns it off', async () => {
    const { cwd } = await makeRepository();
    const model = await models.model('chat-completions', { reply: { text: 'ok' } });
    const home = await models.home(model, { context: { turn_context: false, project_instructions: false } });
    const env = models.envFor(home, { CW_DATE: '2026-03-04' });
    const preview = await runCwChild(['preview-request', 'json', '--prompt', PROMPT], env, { cwd });
    const body = bodyOf(JSON.parse(preview.stdout) as RequestManifest);
    expect(body.turn_context).toEqual({ status: 'off', context_bytes: null, context_sha256: null });
    expect((await runCwChild(['send', '--no-tool-runs', '--prompt', PROMPT], env, { cwd })).code).toBe(0);
    expect(model.requests[0]?.canonicalSha256).toBe(body.body_sha256);
    expect(userTexts(model.requests[0]?.view.body ?? {})).toEqual([PROMPT]);
  });

  it('cuts an AGENTS.md longer than its bound and says so', async () => {
    const { ws, cwd } = await makeRepository();
    await writeFile(join(ws, 'AGENTS.md'), `${'x'.repeat(40 * 1024)}\n`);
    const model = await models.model('chat-completions');
    const home = await models.home(model);
    const preview = await runCwChild(['preview-request', 'json', '--prompt', PROMPT], models.envFor(home), { cwd });
    const layers = bodyOf(JSON.parse(preview.stdout) as RequestManifest).system_prompt.layers;
    const root = layers.find((layer) => layer.layer_kind === 'workspace-instructions' && layer.folder_depth === 0);
    expect(root?.truncated).toBe(true);
    expect(root?.layer_bytes).toBeLessThan(33 * 1024);
    expect(layers.find((layer) => layer.folder_depth === 1)?.truncated).toBe(false);
  });
});

describe('AGENTS.md the model may have written', () => {
  const PEM_BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQsk-test-0fake';
  const PEM = `-----BEGIN OPENSSH PRIVATE KEY-----\n${PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----\n`;

  it('replaces a private key in AGENTS.md with the marker in what the model receives, and counts it', async () => {
    const ws = await models.folder('cw-context-');
    await mkdir(join(ws, '.git'));
    await writeFile(join(ws, 'AGENTS.md'), `Deploy with this key:\n${PEM}`);
    const model = await models.model('chat-completions', { reply: { text: 'ok' } });
    const home = await models.home(model);
    const env = models.envFor(home);
    const preview = await runCwChild(['preview-request', 'json', '--prompt', PROMPT], env, { cwd: ws });
    expect(preview.code).toBe(0);
    expect(bodyOf(JSON.parse(preview.stdout) as RequestManifest).outbound_redaction).toEqual({
      enabled: true,
      user_text_replacements: 0,
      tool_result_replacements: 0,
      system_prompt_replacements: 1,
    });
    const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', PROMPT], env, { cwd: ws });
    expect(sent.code).toBe(0);
    const system = systemTextOf(model.requests[0]?.view.body ?? {});
    expect(system).toContain(`Deploy with this key:\n${OUTBOUND_SECRET_MARKER}`);
    expect(JSON.stringify(model.requests[0]?.view.body)).not.toContain(PEM_BODY);
  });

  it('never reads an AGENTS.md linked to a key outside the workspace: one line, nothing sent', async () => {
    const ws = await models.folder('cw-context-');
    const elsewhere = await models.folder('cw-context-outside-');
    await mkdir(join(ws, '.git'));
    await writeFile(join(elsewhere, 'id_rsa'), PEM);
    await symlink(join(elsewhere, 'id_rsa'), join(ws, 'AGENTS.md'));
    const model = await models.model('chat-completions', { reply: { text: 'ok' } });
    const home = await models.home(model);
    const env = models.envFor(home);
    for (const argv of [
      ['preview-request', 'json', '--prompt', PROMPT],
      ['send', '--no-tool-runs', '--prompt', PROMPT],
    ]) {
      const run = await runCwChild(argv, env, { cwd: ws });
      expect(run.code, argv[0]).toBe(1);
      expect(run.stderr).toBe(
        'cw: cannot read AGENTS.md (workspace): it leads out of its folder through a symbolic link; remove the link\n',
      );
      expect(run.stdout).not.toContain(PEM_BODY);
    }
    expect(model.requests).toEqual([]);
  });
});
