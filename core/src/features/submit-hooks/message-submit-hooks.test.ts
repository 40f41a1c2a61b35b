import { describe, expect, it } from 'vitest';
import { HookBlockedError, HookFailedError, runMessageSubmitHooks } from './message-submit-hooks.js';

const node = (script: string, timeout_ms = 5_000) => ({ command: [process.execPath, '-e', script], timeout_ms });
const run = (hooks: ReturnType<typeof node>[], prompt = 'hi') =>
  runMessageSubmitHooks(
    hooks,
    { prompt, session: 's' },
    { cwd: process.cwd(), env: { PATH: process.env['PATH'] ?? '' } },
  );

describe('runMessageSubmitHooks', () => {
  it('chains rewrites and keeps the prompt on empty output or no prompt field', async () => {
    const upper =
      "let t='';process.stdin.on('data',c=>t+=c).on('end',()=>process.stdout.write(JSON.stringify({prompt:JSON.parse(t).prompt.toUpperCase()})))";
    const bang =
      "let t='';process.stdin.on('data',c=>t+=c).on('end',()=>process.stdout.write(JSON.stringify({prompt:JSON.parse(t).prompt+'!'})))";
    expect(await run([node(upper), node(bang), node(''), node("process.stdout.write('{}')")])).toBe('HI!');
  });

  it('blocks on exit 2 and fails on anything else', async () => {
    await expect(run([node("process.stderr.write('no\\n');process.exit(2)")])).rejects.toThrow(HookBlockedError);
    await expect(run([node('process.exit(1)')])).rejects.toThrow('message_submit hook 1 failed (exit 1)');
    await expect(run([node("process.stdout.write('[1]')")])).rejects.toThrow(HookFailedError);
    await expect(run([node("process.stdout.write(JSON.stringify({prompt:''}))")])).rejects.toThrow(
      'not a non-empty string',
    );
    await expect(run([{ command: ['/nonexistent/hook'], timeout_ms: 1_000 }])).rejects.toThrow('could not be started');
    await expect(run([node('setInterval(()=>{},1000)', 100)])).rejects.toThrow('did not finish within 100 ms');
  });
});
