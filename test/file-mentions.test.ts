// File mentions end to end (docs/file-mentions.md): the BUILT CLI runs in a temp repository, previews
// a prompt with @mentions, then sends it to a scripted model on 127.0.0.1. What a mention attaches is
// what the model receives, byte for byte as previewed; a mention that cannot be resolved is
// `prompt-resolution-failed` in preview and the same error on cw send, with nothing sent or saved.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestManifest } from '@cw/core';
import { TEST_MODE_ENV, TEST_MODE_MARKER, TEST_ORIGIN_ENV } from '../core/src/transport/test-origin.js';
import { FAKE_KEY } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild, sessionMessages } from './support/spawn-cw.js';

const KEY_ENV = 'CW_MENTION_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);
const NOTES = 'The build command is make all.\n';
// A PNG signature and a few bytes: enough for cw to know the type; the model never decodes it here.
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDRpixels')]);

/** A repository with a text file, a file with a space in its name, an image, a binary, a large file and a link out. */
async function makeRepository(): Promise<string> {
  const ws = await models.folder('cw-mention-');
  const outside = await models.folder('cw-outside-');
  await mkdir(join(ws, '.git'));
  await mkdir(join(ws, 'docs'));
  await writeFile(join(ws, 'notes.txt'), NOTES);
  await writeFile(join(ws, 'docs', 'read me.md'), 'Spaces are fine.\n');
  await writeFile(join(ws, 'pic.png'), PNG);
  await writeFile(join(ws, 'blob.bin'), Buffer.from([0x41, 0x00, 0x42]));
  await writeFile(join(ws, 'big.txt'), 'z'.repeat(300 * 1024));
  await writeFile(join(outside, 'secret.txt'), 'outside the workspace\n');
  await symlink(join(outside, 'secret.txt'), join(ws, 'link.txt'));
  return ws;
}

function sections(stdout: string): RequestManifest {
  return JSON.parse(stdout) as RequestManifest;
}

function exactBody(manifest: RequestManifest) {
  if (!('exact' in manifest.body)) throw new Error(`body unavailable: ${JSON.stringify(manifest.body)}`);
  return manifest.body.exact;
}

/** The user messages' text the model received, in the chat wire form. */
function userTextOf(body: Record<string, unknown>): string {
  const messages = body['messages'] as { role: string; content: unknown }[];
  const user = messages.filter((message) => message.role === 'user').at(-1);
  if (user === undefined) return '';
  if (typeof user.content === 'string') return user.content;
  return (user.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('');
}

// The user message is checked as the prompt renders it: no turn-context block in front of it.
const NO_TURN_CONTEXT = { context: { turn_context: false } };

describe('file mentions', () => {
  it('attaches mentioned text files inline, as previewed, and saves the message that was sent', async () => {
    const ws = await makeRepository();
    const model = await models.model('chat-completions', { reply: { text: 'make all' } });
    const home = await models.home(model, NO_TURN_CONTEXT);
    const env = models.envFor(home);
    const prompt = 'how do I build? see @notes.txt and @"docs/read me.md", not @@notes.txt';
    const preview = await runCwChild(['preview-request', 'json', '--prompt', prompt], env, { cwd: ws });
    expect(preview.stderr).toBe('');
    const body = exactBody(sections(preview.stdout));
    expect(body.prompt_files).toEqual({ text_file_count: 2, attached_image_count: 0, stripped_image_count: 0 });
    expect(body.attachment_count).toBe(0);

    const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', prompt], env, { cwd: ws });
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(model.problems).toEqual([]);
    expect(model.requests[0]?.canonicalSha256).toBe(body.body_sha256);
    const text = userTextOf(model.requests[0]?.view.body ?? {});
    expect(text).toBe(
      'how do I build? see @notes.txt and @"docs/read me.md", not @notes.txt' +
        `\n\n<file path="notes.txt">\n${NOTES}</file>` +
        '\n\n<file path="docs/read me.md">\nSpaces are fine.\n</file>',
    );
    const [user] = await sessionMessages(home);
    expect(user).toEqual({ role: 'user', content: text });

    // The next turn replays the stored message, so the same file is not read again.
    const noPrompt = await runCwChild(['preview-request', 'json', '--prompt', 'thanks'], env, { cwd: ws });
    expect(exactBody(sections(noPrompt.stdout)).prompt_files.text_file_count).toBe(0);
  });

  it('leaves an image out, with a counted note, on a route that takes no images', async () => {
    const ws = await makeRepository();
    const model = await models.model('chat-completions', { reply: { text: 'a picture' } });
    const home = await models.home(model, NO_TURN_CONTEXT);
    const env = models.envFor(home);
    const prompt = 'what is in @pic.png?';
    const preview = await runCwChild(['preview-request', 'json', '--prompt', prompt], env, { cwd: ws });
    const body = exactBody(sections(preview.stdout));
    expect(body.prompt_files).toEqual({ text_file_count: 0, attached_image_count: 0, stripped_image_count: 1 });
    expect(body.attachment_count).toBe(0);
    const table = await runCwChild(['preview-request', '--prompt', prompt], env, { cwd: ws });
    expect(table.stdout).toMatch(/images left out +1 \(the route takes no images\)/);

    const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', prompt], env, { cwd: ws });
    expect(sent.code).toBe(0);
    expect(model.requests[0]?.canonicalSha256).toBe(body.body_sha256);
    expect(userTextOf(model.requests[0]?.view.body ?? {})).toBe(
      'what is in @pic.png?\n\n<image path="pic.png" omitted="this model does not take images" />',
    );
    expect(model.requests[0]?.received.body).not.toContain(PNG.toString('base64'));
  });

  it('attaches an image as an image part on a route whose row takes images', async () => {
    const ws = await makeRepository();
    const model = await models.model('anthropic-messages', { reply: { text: 'a picture' } });
    const home = await models.home(model, { route: 'anthropic', ...NO_TURN_CONTEXT });
    const env = models.envFor(home, {
      ANTHROPIC_API_KEY: FAKE_KEY,
      [TEST_ORIGIN_ENV]: model.origin,
      [TEST_MODE_ENV]: TEST_MODE_MARKER,
    });
    const prompt = 'what is in @pic.png?';
    const preview = await runCwChild(['preview-request', 'json', '--prompt', prompt], env, { cwd: ws });
    expect(preview.stderr).toBe('');
    const body = exactBody(sections(preview.stdout));
    expect(body.prompt_files).toEqual({ text_file_count: 0, attached_image_count: 1, stripped_image_count: 0 });
    expect(body.attachment_count).toBe(1);
    expect(body.attachment_canonical_json_bytes).toBeGreaterThan(PNG.toString('base64').length);

    const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', prompt], env, { cwd: ws });
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(model.requests[0]?.canonicalSha256).toBe(body.body_sha256);
    const messages = model.requests[0]?.view.body['messages'] as { content: Record<string, unknown>[] }[];
    expect(messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'what is in @pic.png?\n\n<image path="pic.png" attached="1" />' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') } },
    ]);
  });

  const FAILURES = [
    ['a missing file', 'read @nothing-here.txt', 'file mention 1 names no file in the workspace'],
    ['a link out of the workspace', 'read @link.txt', 'file mention 1 resolves outside the workspace'],
    ['a binary file', 'read @notes.txt and @blob.bin', 'file mention 2 is a binary file'],
    ['an oversize file', 'read @big.txt', 'file mention 1 is larger than 262144 bytes'],
  ] as const;

  for (const [what, prompt, detail] of FAILURES) {
    it(`${what}: preview says prompt-resolution-failed for route, tools and body; send fails the same way`, async () => {
      const ws = await makeRepository();
      const model = await models.model('chat-completions', { reply: { text: 'never sent' } });
      const home = await models.home(model);
      const env = models.envFor(home);
      const before = await homeBytes(home);

      const preview = await runCwChild(['preview-request', 'json', '--prompt', prompt], env, { cwd: ws });
      expect(preview.code).toBe(0);
      const manifest = sections(preview.stdout);
      for (const section of [manifest.route, manifest.tools, manifest.body]) {
        expect(section).toEqual({ unavailable: { reason: 'prompt-resolution-failed', detail: expect.any(String) } });
        const shown = (section as { unavailable: { detail: string } }).unavailable.detail;
        expect(shown.startsWith(detail), shown).toBe(true);
      }
      expect(preview.stdout).not.toContain(ws);
      expect(await homeBytes(home)).toEqual(before);

      const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', prompt], env, { cwd: ws });
      expect(sent.code).toBe(1);
      expect(sent.stderr.startsWith(`cw: this turn cannot be sent: prompt-resolution-failed (${detail}`)).toBe(true);
      expect(sent.stderr).not.toContain(ws);
      expect(model.requests).toHaveLength(0);
      expect(await homeBytes(home)).toEqual(before);
    });
  }
});
