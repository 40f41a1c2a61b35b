// message_submit hooks end to end (docs/hooks.md): the BUILT CLI, a temp repository, hook programs
// written there, and a scripted model on 127.0.0.1. Preview never runs a hook and says
// `message-submit-hooks-not-executed` for route, tools and body; cw send runs them before it resolves
// the prompt, and a hook that blocks or fails stops the send with nothing sent or saved.
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestManifest } from '@cw/core';
import { FAKE_KEY } from './support/cw-fixture.js';
import { homeBytes } from './support/home-bytes.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild, sessionMessages } from './support/spawn-cw.js';

const KEY_ENV = 'CW_HOOK_KEY';
const models = useScriptedModels(KEY_ENV, FAKE_KEY);

// Each hook leaves a mark file when it runs, so a test can tell that preview never ran it.
const REWRITE = `
import { readFileSync, writeFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
writeFileSync('hook-ran', input.event + ' ' + input.session);
const key = process.env.${KEY_ENV} === undefined ? 'no key' : 'KEY VISIBLE';
process.stdout.write(JSON.stringify({ prompt: input.prompt.replace('@secret.txt', '@notes.txt') + ' [' + key + ']' }));
`;
const KEEP = `
import { readFileSync, writeFileSync } from 'node:fs';
readFileSync(0, 'utf8');
writeFileSync('hook-ran', 'keep');
`;
const BLOCK = `
process.stderr.write('blocked: prompts may not mention /etc/passwd or sk-live-abcdefghijklmnopqrstuvwx\\n');
process.exit(2);
`;
const FAIL = 'process.exit(3);';
const HANG = 'setInterval(() => {}, 1000);';
const NOT_JSON = "process.stdout.write('sure');";

async function repository(): Promise<string> {
  const ws = await models.folder('cw-hooks-');
  await mkdir(join(ws, '.git'));
  await writeFile(join(ws, 'notes.txt'), 'Build with make all.\n');
  for (const [name, text] of Object.entries({ REWRITE, KEEP, BLOCK, FAIL, HANG, NOT_JSON }))
    await writeFile(join(ws, `${name.toLowerCase()}.mjs`), text);
  return ws;
}

const hook = (ws: string, name: string, timeout_ms = 10_000) => ({
  command: [process.execPath, join(ws, `${name}.mjs`)],
  timeout_ms,
});

const ran = (ws: string): Promise<boolean> =>
  stat(join(ws, 'hook-ran')).then(
    () => true,
    () => false,
  );

function userText(body: Record<string, unknown>): string {
  const messages = body['messages'] as { role: string; content: string }[];
  return messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
}

describe('message_submit hooks', () => {
  it('preview never runs them and says message-submit-hooks-not-executed, ahead of a failing mention', async () => {
    const ws = await repository();
    const model = await models.model('chat-completions', { reply: { text: 'ok' } });
    const home = await models.home(model, { hooks: { message_submit: [hook(ws, 'rewrite')] } });
    const env = models.envFor(home);
    const before = await homeBytes(home);
    // @secret.txt does not exist: without hooks this would be prompt-resolution-failed.
    for (const prompt of ['how do I build?', 'read @secret.txt']) {
      const preview = await runCwChild(['preview-request', 'json', '--prompt', prompt], env, { cwd: ws });
      expect(preview.code).toBe(0);
      const manifest = JSON.parse(preview.stdout) as RequestManifest;
      const reason = { unavailable: { reason: 'message-submit-hooks-not-executed', detail: null } };
      expect([manifest.route, manifest.tools, manifest.body]).toEqual([reason, reason, reason]);
      expect(manifest.session.message_submit_hook_count).toBe(1);
    }
    expect(await ran(ws)).toBe(false);
    expect(await homeBytes(home)).toEqual(before);
  });

  it('cw send runs them first, without API keys, and resolves the prompt the hook returned', async () => {
    const ws = await repository();
    const model = await models.model('chat-completions', { reply: { text: 'make all' } });
    // The stored message is the resolved prompt alone: no turn-context block.
    const home = await models.home(model, {
      hooks: { message_submit: [hook(ws, 'keep'), hook(ws, 'rewrite')] },
      context: { turn_context: false },
    });
    const env = models.envFor(home);
    // The typed prompt mentions a missing file; the hook rewrites it to one that exists.
    const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', 'read @secret.txt'], env, { cwd: ws });
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(model.problems).toEqual([]);
    const text = userText(model.requests[0]?.view.body ?? {});
    expect(text).toBe('read @notes.txt [no key]\n\n<file path="notes.txt">\nBuild with make all.\n</file>');
    expect((await sessionMessages(home))[0]).toEqual({ role: 'user', content: text });
    expect(await ran(ws)).toBe(true);
  });

  it('a hook that passes the prompt through leaves a failing mention to fail the send', async () => {
    const ws = await repository();
    const model = await models.model('chat-completions', { reply: { text: 'never sent' } });
    const home = await models.home(model, { hooks: { message_submit: [hook(ws, 'keep')] } });
    const before = await homeBytes(home);
    const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', 'read @secret.txt'], models.envFor(home), {
      cwd: ws,
    });
    expect(sent.code).toBe(1);
    expect(sent.stderr).toBe(
      'cw: this turn cannot be sent: prompt-resolution-failed (file mention 1 names no file in the workspace)\n',
    );
    expect(model.requests).toHaveLength(0);
    expect(await homeBytes(home)).toEqual(before);
  });

  const STOPS = [
    [
      'exit 2 blocks with the redacted reason',
      'block',
      /^cw: message_submit hook 1 blocked this prompt: blocked: prompts may not mention <path-redacted> or <redacted>.*; nothing was sent\n$/,
    ],
    ['another exit code fails the send', 'fail', /^cw: message_submit hook 1 failed \(exit 3\); nothing was sent/],
    ['a timeout fails the send', 'hang', /^cw: message_submit hook 1 did not finish within 300 ms; nothing was sent/],
    [
      'stdout that is not JSON fails the send',
      'not_json',
      /^cw: message_submit hook 1 exited 0 but its stdout is not JSON/,
    ],
  ] as const;

  for (const [what, name, message] of STOPS) {
    it(`${what}: exit 1, nothing sent, nothing saved`, async () => {
      const ws = await repository();
      const model = await models.model('chat-completions', { reply: { text: 'never sent' } });
      // Only the hanging hook needs a short limit; the others get room to start inside the sandbox.
      const home = await models.home(model, {
        hooks: { message_submit: [hook(ws, name, name === 'hang' ? 300 : 10_000)] },
      });
      const before = await homeBytes(home);
      const sent = await runCwChild(['send', '--no-tool-runs', '--prompt', 'hello'], models.envFor(home), { cwd: ws });
      expect(sent.code).toBe(1);
      expect(sent.stderr).toMatch(message);
      expect(sent.stderr).not.toContain('sk-live');
      expect(model.requests).toHaveLength(0);
      expect(await homeBytes(home)).toEqual(before);
    });
  }
});
