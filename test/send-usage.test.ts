// Token usage the provider reports is saved with the assistant message of the turn, as totals, and
// is never sent back to the provider. Each send runs as a child process of the BUILT CLI (run
// `npm run build` first), against a local server on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { useFaultHomes } from './support/fault-home.js';
import { data, sse } from './support/fault-server.js';
import { runCwChild, sessionMessages } from './support/spawn-cw.js';

const KEY_ENV = 'CW_USAGE_TEST_KEY';

const fault = useFaultHomes(KEY_ENV);
// The stored turns and the bodies are compared with the prompts as typed: no turn-context block.
const NO_TURN_CONTEXT = { context: { turn_context: false } };

describe('usage is recorded with the turn', () => {
  it('chat-completions: the usage chunk before [DONE] is saved on the assistant message, and not sent back', async () => {
    const home = await fault.home('chat-completions', NO_TURN_CONTEXT);
    const env = fault.envFor(home);
    fault.server.next(
      sse(
        data({ choices: [{ delta: { content: 'counted' } }] }),
        data({ choices: [{ delta: {}, finish_reason: 'stop' }] }),
        data({ choices: [], usage: { prompt_tokens: 11, completion_tokens: 3 } }),
        'data: [DONE]\n\n',
      ),
    );
    const first = await runCwChild(['send', '--prompt', 'count me'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(await sessionMessages(home)).toEqual([
      { role: 'user', content: 'count me' },
      { role: 'assistant', content: 'counted', usage: { input_tokens: 11, output_tokens: 3 } },
    ]);

    // A reply without usage saves no usage; the earlier usage stays out of the next request.
    fault.server.next(
      sse(data({ choices: [{ delta: { content: 'again' }, finish_reason: 'stop' }] }), 'data: [DONE]\n\n'),
    );
    const second = await runCwChild(['send', '--prompt', 'once more'], env);
    expect(second.code, second.stderr).toBe(0);
    const sent = JSON.parse(fault.server.received.at(-1)?.body ?? '{}') as { messages: Record<string, unknown>[] };
    expect(sent.messages.filter((message) => message['role'] !== 'system')).toEqual([
      { role: 'user', content: 'count me' },
      { role: 'assistant', content: 'counted' },
      { role: 'user', content: 'once more' },
    ]);
    const messages = await sessionMessages(home);
    expect(messages.at(-1)).toEqual({ role: 'assistant', content: 'again' });
  });

  it('anthropic-messages: cumulative usage (message_start, then message_delta totals) is saved as the last totals', async () => {
    const home = await fault.home('anthropic-messages', NO_TURN_CONTEXT);
    const env = fault.envFor(home);
    fault.server.next(
      sse(
        data({ type: 'message_start', message: { usage: { input_tokens: 5, output_tokens: 1 } } }, 'message_start'),
        data(
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          'content_block_start',
        ),
        data(
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'tallied' } },
          'content_block_delta',
        ),
        data({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
        data(
          { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { input_tokens: 9, output_tokens: 4 } },
          'message_delta',
        ),
        data({ type: 'message_stop' }, 'message_stop'),
      ),
    );
    const run = await runCwChild(['send', '--json', '--prompt', 'count me'], env);
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as { reply: { text: string; usage: unknown } };
    expect(printed.reply).toMatchObject({ text: 'tallied', usage: { input_tokens: 9, output_tokens: 4 } });
    expect(await sessionMessages(home)).toEqual([
      { role: 'user', content: 'count me' },
      { role: 'assistant', content: 'tallied', usage: { input_tokens: 9, output_tokens: 4 } },
    ]);
  });
});
