import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conversationMessageSchema } from '../prompt/conversation.js';
import { sessionMessagesOf } from './check-session-file.js';

// The schema the session store used to parse with: the in-place check must agree with it exactly.
const sessionFile = z
  .object({
    version: z.literal(1),
    messages: z.array(conversationMessageSchema),
    route: z.string().min(1).max(64).optional(),
  })
  .strict();

const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('', 'a', '\uD800'));
const anyJson = fc.jsonValue({ maxDepth: 2 });
// A field value: usually of the right kind, sometimes anything.
const maybe = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 12, arbitrary: good }, { weight: 1, arbitrary: anyJson });
// An object of the shape, now and then with a key the shape does not name.
const withExtra = <T extends object>(shape: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 12, arbitrary: shape },
    { weight: 1, arbitrary: fc.tuple(shape, anyJson).map(([value, extra]) => ({ ...value, extra })) },
  );
const count = fc.oneof(fc.nat(), fc.constantFrom(-1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER));
const hash = fc.oneof(
  fc.constant('a'.repeat(64)),
  fc.stringMatching(/^[0-9a-f]{64}$/),
  fc.constantFrom('A'.repeat(64), 'a'.repeat(63)),
);
const image = withExtra(
  fc.record(
    {
      media_type: maybe(fc.constantFrom('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp')),
      data: maybe(fc.oneof(fc.base64String({ maxLength: 12 }), fc.constantFrom('abc$', '=='))),
    },
    { requiredKeys: ['media_type', 'data'] },
  ),
);
const call = withExtra(fc.record({ id: maybe(text), name: maybe(text), arguments: maybe(text) }));
const user = withExtra(
  fc.record(
    {
      role: fc.constant('user'),
      content: maybe(text),
      images: maybe(fc.array(image, { maxLength: 2 })),
      summary_of: maybe(count),
      turn_context: maybe(text),
    },
    { requiredKeys: ['role', 'content'] },
  ),
);
const assistant = withExtra(
  fc.record(
    {
      role: fc.constant('assistant'),
      content: maybe(text),
      tool_calls: maybe(fc.array(call, { maxLength: 2 })),
      usage: maybe(withExtra(fc.record({ input_tokens: count, output_tokens: count }))),
      replay: maybe(
        withExtra(
          fc.record({
            dialect: maybe(fc.string({ maxLength: 50 })),
            items: maybe(fc.array(anyJson, { maxLength: 2 })),
          }),
        ),
      ),
      body_sha256: maybe(hash),
    },
    { requiredKeys: ['role', 'content'] },
  ),
);
const tool = withExtra(
  fc.record(
    {
      role: fc.constant('tool'),
      tool_call_id: maybe(text),
      name: maybe(text),
      content: maybe(text),
      status: maybe(fc.constantFrom('ok', 'error', 'refused', 'invalid', 'not-executed', 'done')),
    },
    { requiredKeys: ['role', 'tool_call_id', 'name', 'content'] },
  ),
);
const message = fc.oneof({ weight: 4, arbitrary: fc.oneof(user, assistant, tool) }, { weight: 1, arbitrary: anyJson });
const file = withExtra(
  fc.record(
    {
      version: maybe(fc.constant(1)),
      messages: maybe(fc.array(message, { maxLength: 4 })),
      route: maybe(fc.string({ minLength: 0, maxLength: 66 })),
    },
    { requiredKeys: [] },
  ),
);

describe('sessionMessagesOf', () => {
  it('accepts exactly what the conversation schema accepts, and yields the same messages', () => {
    let accepted = 0;
    fc.assert(
      fc.property(file, (generated) => {
        const raw: unknown = JSON.parse(JSON.stringify(generated));
        const parsed = sessionFile.safeParse(raw);
        const checked = sessionMessagesOf(JSON.parse(JSON.stringify(generated)));
        expect(checked !== null).toBe(parsed.success);
        if (parsed.success) {
          accepted += 1;
          expect(checked).toEqual(parsed.data.messages);
        }
      }),
      { numRuns: 3000 },
    );
    // The generator must reach valid files often enough for the agreement to mean something.
    expect(accepted).toBeGreaterThan(100);
  });

  it('accepts a valid history of every role and freezes it in place', () => {
    const raw = {
      version: 1,
      messages: [
        { role: 'user', content: 'look', images: [{ media_type: 'image/png', data: 'iVBO' }] },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{}' }],
          usage: { input_tokens: 3, output_tokens: 4 },
          replay: { dialect: 'anthropic-messages', items: [{ type: 'thinking' }] },
          body_sha256: 'f'.repeat(64),
        },
        { role: 'tool', tool_call_id: 'c1', name: 'read_file', content: 'x', status: 'ok' },
      ],
    };
    const messages = sessionMessagesOf(raw);
    expect(messages).toBe(raw.messages);
    expect(sessionFile.parse(raw).messages).toEqual(messages);
    expect(Object.isFrozen(messages)).toBe(true);
    for (const entry of messages ?? []) expect(Object.isFrozen(entry)).toBe(true);
    expect(Object.isFrozen(raw.messages[1]?.tool_calls?.[0])).toBe(true);
  });

  it('refuses a file that is not the stored shape', () => {
    for (const raw of [null, [], { version: 2, messages: [] }, { version: 1 }, { version: 1, messages: [], x: 1 }])
      expect(sessionMessagesOf(raw)).toBeNull();
    expect(
      sessionMessagesOf(JSON.parse('{"version":1,"messages":[{"role":"user","content":"a","__proto__":1}]}')),
    ).toBeNull();
  });
});
