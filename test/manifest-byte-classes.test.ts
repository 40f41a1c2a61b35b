// Exact byte-class accounting, dialect-aware: system + tool_schemas + messages + framing == body
// canonical bytes in every dialect, on both entry points, with and without tools and tool results.
// Hashes and sizes are recomputed here with an independent JCS implementation (canonicalize).
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { PluginRegistry } from '@cw/core';
import type { WireBody } from '@cw/core/plugin';
import type { BodyFacts } from '../core/src/manifest/manifest-schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinRegistry } from './support/cw-fixture.js';
import {
  DIALECTS,
  HISTORY_WITH_TOOL_RESULTS,
  previewFor,
  removePreviewHomes,
  type TestDialect,
} from './support/manifest-preview.js';

afterAll(removePreviewHomes);

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const canonicalBytes = (value: unknown): number => Buffer.byteLength(canonicalize(value) as string, 'utf8');

const VARIANTS = {
  'no tools': { tools: { allow: [] }, history: undefined },
  tools: { tools: undefined, history: undefined },
  'history with tool results': { tools: undefined, history: HISTORY_WITH_TOOL_RESULTS },
} as const;

function customRoute(dialect: TestDialect, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    route: 'bc',
    routes: { bc: { provider: 'custom', dialect, base_url: 'http://127.0.0.1:9/v1', model: 'bc-model' } },
    ...extra,
  };
}

function exactBody(manifest: { body: { exact: BodyFacts } | { unavailable: unknown } }): BodyFacts {
  if (!('exact' in manifest.body)) throw new Error(`body unavailable: ${JSON.stringify(manifest.body)}`);
  return manifest.body.exact;
}

describe('the identity holds in every dialect x entry point x conversation shape', () => {
  for (const dialect of DIALECTS) {
    for (const entrypoint of ['streaming', 'blocking'] as const) {
      for (const [variant, setup] of Object.entries(VARIANTS)) {
        it(`${dialect}, ${entrypoint}, ${variant}`, async () => {
          const { manifest, prepared } = await previewFor({
            config: customRoute(dialect, setup.tools ? { tools: setup.tools } : {}),
            history: setup.history,
            entrypoint,
          });
          const body = exactBody(manifest);
          const wire = prepared?.body as WireBody;
          expect(
            body.system_canonical_json_bytes +
              body.tool_schema_canonical_json_bytes +
              body.message_canonical_json_bytes +
              body.framing_canonical_json_bytes,
          ).toBe(body.body_canonical_json_bytes);
          expect(body.body_canonical_json_bytes).toBe(canonicalBytes(wire));
          expect(body.framing_canonical_json_bytes).toBeGreaterThan(0);
          expect(body.system_canonical_json_bytes).toBeGreaterThan(0);
          expect(body.system_prompt.effective_system_canonical_json_bytes).toBe(body.system_canonical_json_bytes);
          // Subsets of messages, never added again.
          expect(body.tool_result_canonical_json_bytes).toBeLessThanOrEqual(body.message_canonical_json_bytes);
          expect(body.attachment_canonical_json_bytes).toBeLessThanOrEqual(body.message_canonical_json_bytes);
          expect(body.tool_result_canonical_json_bytes > 0).toBe(setup.history !== undefined);
          // Tools: the wire region exactly, or nothing.
          const hasTools = setup.tools === undefined;
          expect(body.tool_schema_canonical_json_bytes > 0).toBe(hasTools);
          expect(body.tool_schema_wire_sha256).toBe(hasTools ? sha256(canonicalize(wire['tools']) as string) : null);
          if (hasTools) expect(body.tool_schema_canonical_json_bytes).toBe(canonicalBytes(wire['tools']));
          // Hashes: independent JCS over the body, and the exact wire bytes.
          expect(body.body_sha256).toBe(sha256(canonicalize(wire) as string));
          expect(body.body_wire_sha256).toBe(sha256(prepared?.canonical.wireText ?? ''));
          expect(body.body_wire_bytes).toBe(Buffer.byteLength(prepared?.canonical.wireText ?? '', 'utf8'));
          expect(body.local_system_tools_component_sha256).toBe(
            sha256(
              `system=${body.system_prompt.effective_system_sha256}\ntools=${body.tool_schema_wire_sha256 ?? ''}\n`,
            ),
          );
          // Estimates: ceil(bytes/4) per class; the total from the whole body plus 5%.
          const whole = Math.ceil(body.body_canonical_json_bytes / 4);
          expect(body.estimates.total_conservative).toBe(whole + Math.floor((whole * 5) / 100));
          expect(body.estimates.system).toBe(Math.ceil(body.system_canonical_json_bytes / 4));
          expect(body.estimates.tool_schemas).toBe(Math.ceil(body.tool_schema_canonical_json_bytes / 4));
          expect(body.estimates.messages).toBe(Math.ceil(body.message_canonical_json_bytes / 4));
          expect(body.estimates.tool_results).toBeLessThanOrEqual(body.estimates.messages);
          // Message count: conversation items only (a Chat system item is not a message).
          const items = (wire['messages'] ?? wire['input']) as unknown[];
          const systemItems = items.filter((item) => (item as { role?: string }).role === 'system').length;
          expect(body.message_count).toBe(items.length - systemItems);
          expect(manifest.route).toMatchObject({ exact: { dialect, caller_entrypoint: entrypoint } });
        });
      }
    }
  }
});

describe('stream and tool_choice are read off the finished body', () => {
  const expected: Record<TestDialect, Record<'streaming' | 'blocking', boolean | null>> = {
    'chat-completions': { streaming: true, blocking: null },
    'anthropic-messages': { streaming: true, blocking: false },
    'openai-responses': { streaming: true, blocking: true },
  };
  for (const dialect of DIALECTS) {
    it(`${dialect}: body_stream_field per entry point; tool_choice label`, async () => {
      const streaming = await previewFor({ config: customRoute(dialect), entrypoint: 'streaming' });
      const blocking = await previewFor({ config: customRoute(dialect), entrypoint: 'blocking' });
      expect(streaming.manifest.route).toMatchObject({ exact: { body_stream_field: expected[dialect].streaming } });
      expect(blocking.manifest.route).toMatchObject({ exact: { body_stream_field: expected[dialect].blocking } });
      expect(exactBody(streaming.manifest).tool_choice).toBe('auto');
      const same = exactBody(streaming.manifest).body_sha256 === exactBody(blocking.manifest).body_sha256;
      // Responses streams on both entry points: the two bodies are byte-identical. The others differ.
      expect(same).toBe(dialect === 'openai-responses');
    });
  }
});

describe("attribution with the dialects' own describers", () => {
  let registry: PluginRegistry;
  beforeAll(async () => {
    registry = await builtinRegistry();
  });

  const classesOf = async (dialect: TestDialect, body: WireBody) => {
    const { byteClasses } = await import('../core/src/body/byte-classes.js');
    const layout = registry.dialect(dialect)?.describeBody(body);
    if (!layout) throw new Error(`no describer for ${dialect}`);
    return byteClasses(body, layout);
  };

  const chatBody = (): WireBody => ({
    max_tokens: 4096,
    messages: [
      { content: 'SECRET SYSTEM PROMPT', role: 'system' },
      { content: 'SECRET USER MESSAGE', role: 'user' },
      { content: 'SECRET TOOL OUTPUT', role: 'tool', tool_call_id: 'c1' },
    ],
    model: 'glm-5.2',
    reasoning_effort: 'high',
    stream: true,
    tool_choice: { type: 'auto' },
    tools: [{ function: { name: 'read_file' }, type: 'function' }],
  });

  it('a chat body with system, user and tool messages: 348 = 50 + 53 + 117 + 128, tool result 66, two messages', async () => {
    const classes = await classesOf('chat-completions', chatBody());
    expect(classes).toMatchObject({
      body: 348,
      system: 50,
      toolSchemas: 53,
      messages: 117,
      framing: 128,
      toolResults: 66,
      messageCount: 2,
    });
  });

  it('an empty chat body: 27 = 0 + 0 + 2 + 25', async () => {
    expect(await classesOf('chat-completions', { model: 'm', messages: [] })).toMatchObject({
      body: 27,
      system: 0,
      toolSchemas: 0,
      messages: 2,
      framing: 25,
    });
  });

  it('a system item in the middle of the conversation still counts once, as system', async () => {
    const body: WireBody = {
      model: 'm',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'system', content: 'S' },
        { role: 'user', content: 'b' },
      ],
    };
    const classes = await classesOf('chat-completions', body);
    expect(classes.system).toBe(canonicalBytes({ role: 'system', content: 'S' }));
    expect(classes.system + classes.toolSchemas + classes.messages + classes.framing).toBe(classes.body);
    expect(classes.messageCount).toBe(2);
  });

  it('mutations move only their own class', async () => {
    const base = await classesOf('chat-completions', chatBody());
    const longerSystem = chatBody();
    (longerSystem['messages'] as { content: string }[])[0]!.content += ' AND MORE';
    const grown = await classesOf('chat-completions', longerSystem);
    expect(grown.system).toBeGreaterThan(base.system);
    expect(grown.messages).toBe(base.messages);

    const appended = chatBody();
    (appended['messages'] as unknown[]).push({ role: 'user', content: 'again' });
    const more = await classesOf('chat-completions', appended);
    expect(more.messages).toBeGreaterThan(base.messages);
    expect(more.system).toBe(base.system);

    const framed = { ...chatBody(), stream_options: { include_usage: true } };
    const framing = await classesOf('chat-completions', framed);
    expect(framing.framing).toBeGreaterThan(base.framing);
    expect(framing.messages).toBe(base.messages);

    const schema = chatBody();
    (schema['tools'] as { function: Record<string, unknown> }[])[0]!.function['parameters'] = { type: 'object' };
    const tools = await classesOf('chat-completions', schema);
    expect(tools.toolSchemas).toBeGreaterThan(base.toolSchemas);
    expect(tools.system + tools.toolSchemas + tools.messages + tools.framing).toBe(tools.body);
  });

  it('Anthropic: system array, tool_result block and image attachment', async () => {
    const body: WireBody = {
      model: 'claude',
      system: [{ type: 'text', text: 'SYS' }],
      messages: [
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'OUT' }] },
        { role: 'user', content: [{ type: 'image', source: { data: 'AAA' } }] },
      ],
      tools: [{ name: 'a' }],
      stream: true,
    };
    const classes = await classesOf('anthropic-messages', body);
    expect(classes.system).toBe(30);
    expect(classes.toolSchemas).toBe(14);
    expect(classes.attachments).toBe(40);
    expect(classes.attachmentCount).toBe(1);
    expect(classes.toolResults).toBe(canonicalBytes(body['messages'] && (body['messages'] as unknown[])[0]));
    expect(classes.messageCount).toBe(2);
    expect(classes.system + classes.toolSchemas + classes.messages + classes.framing).toBe(classes.body);
  });

  it('Responses: instructions, function_call_output, input_image', async () => {
    const body: WireBody = {
      model: 'gpt',
      instructions: 'SYS',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'hi' },
            { type: 'input_image', image_url: 'data:,' },
          ],
        },
        { type: 'function_call_output', call_id: 'c1', output: 'OUT' },
      ],
      tools: [{ name: 'a' }],
      reasoning: { effort: 'high' },
      stream: true,
    };
    const classes = await classesOf('openai-responses', body);
    expect(classes.system).toBe(5);
    expect(classes.toolResults).toBe(canonicalBytes({ type: 'function_call_output', call_id: 'c1', output: 'OUT' }));
    expect(classes.attachmentCount).toBe(1);
    expect(classes.messageCount).toBe(2);
    expect(classes.system + classes.toolSchemas + classes.messages + classes.framing).toBe(classes.body);
  });

  it('Chat image_url parts are attachments, inside messages', async () => {
    const body: WireBody = {
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'data:,' } },
          ],
        },
      ],
    };
    const classes = await classesOf('chat-completions', body);
    expect(classes.attachmentCount).toBe(1);
    expect(classes.attachments).toBeLessThanOrEqual(classes.messages);
  });
});
