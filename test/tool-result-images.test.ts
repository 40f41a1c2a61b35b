// Images an MCP tool result carries reach the next request as image parts on a route whose row takes
// images, in each dialect's own way, and as a typed note on a route whose row takes none; every body
// passes its published request schema.
import { afterAll, describe, expect, it } from 'vitest';
import { previewRequest } from '@cw/core';
import { builtinRegistry, removeHome, snapshotOf, tempHome, writeSession } from './support/cw-fixture.js';
import { validateWireBody, type WireDialect } from './support/wire-schemas.js';

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const RESULT_TEXT = '[image 1: image/png, 70 bytes]';
const HISTORY = [
  { role: 'user', content: 'show me the picture' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [{ id: 'call_img', name: 'mcp__everything__get-tiny-image', arguments: '{}' }],
  },
  {
    role: 'tool',
    tool_call_id: 'call_img',
    name: 'mcp__everything__get-tiny-image',
    content: RESULT_TEXT,
    images: [{ media_type: 'image/png', data: PNG }],
    status: 'ok',
  },
];

const registry = await builtinRegistry();
// Some dialects have no built-in row that takes images: a copy of one of theirs that does, registered
// through the plugin API and validated like any row.
for (const dialect of ['chat-completions', 'gemini-generate-content', 'ollama-chat', 'openai-responses']) {
  const row = registry.rows.find((entry) => entry.dialect === dialect);
  if (row === undefined) throw new Error(`no ${dialect} row`);
  const { plugin: _plugin, ...input } = row as unknown as Record<string, unknown>;
  registry.apiFor('@cw/test-images').addRoute({
    ...input,
    route_id: `${row.route_id}-images`,
    image_input: true,
  } as never);
  registry.apiFor('@cw/test-images').addRoute({
    ...input,
    route_id: `${row.route_id}-no-images`,
    image_input: false,
  } as never);
}
expect(registry.problems.filter((problem) => problem.plugin === '@cw/test-images')).toEqual([]);
const homes: string[] = [];
afterAll(async () => {
  await Promise.all(homes.map(removeHome));
});

async function bodyFor(route: string): Promise<{ dialect: WireDialect; body: Record<string, unknown> }> {
  const home = await tempHome({ route });
  homes.push(home);
  await writeSession(home, 'default', HISTORY, null);
  const { prepared } = previewRequest(await snapshotOf(home, registry), 'and now?', 'blocking');
  if (prepared === null) throw new Error(`${route}: the request is blocked`);
  const dialect = prepared.dialect as WireDialect;
  expect(validateWireBody(dialect, prepared.body).errors).toEqual([]);
  return { dialect, body: prepared.body as Record<string, unknown> };
}

function routeOf(dialect: string, images: boolean): string | undefined {
  return registry.rows.find((row) => row.dialect === dialect && row.image_input === images)?.route_id;
}

const DIALECTS: readonly WireDialect[] = [
  'anthropic-messages',
  'openai-responses',
  'chat-completions',
  'gemini-generate-content',
  'ollama-chat',
];

/** Where each dialect carries the image of a tool result. */
const IMAGE_AT: Record<WireDialect, (body: Record<string, unknown>) => unknown> = {
  'anthropic-messages': (body) => {
    const messages = body['messages'] as { role: string; content: unknown }[];
    const blocks = messages.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
    const result = blocks.find((block) => block.type === 'tool_result');
    return result?.content;
  },
  'openai-responses': (body) =>
    (body['input'] as { type?: string; output?: unknown }[]).find((item) => item.type === 'function_call_output')
      ?.output,
  'chat-completions': (body) => {
    const messages = body['messages'] as { role: string; content: unknown }[];
    const at = messages.findIndex((message) => message.role === 'tool');
    return [messages[at]?.content, messages[at + 1]];
  },
  'gemini-generate-content': (body) => {
    const contents = body['contents'] as { parts: Record<string, unknown>[] }[];
    return contents.flatMap((content) => content.parts).find((part) => 'functionResponse' in part)?.[
      'functionResponse'
    ];
  },
  'ollama-chat': (body) => (body['messages'] as { role: string }[]).find((message) => message.role === 'tool'),
};

const EXPECTED: Record<WireDialect, unknown> = {
  'anthropic-messages': [
    { type: 'text', text: RESULT_TEXT },
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
  ],
  'openai-responses': [
    { type: 'input_text', text: RESULT_TEXT },
    { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
  ],
  'chat-completions': [
    RESULT_TEXT,
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Images from the result of tool call call_img (mcp__everything__get-tiny-image):' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      ],
    },
  ],
  'gemini-generate-content': {
    name: 'mcp__everything__get-tiny-image',
    response: { output: RESULT_TEXT },
    parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }],
  },
  'ollama-chat': {
    role: 'tool',
    content: RESULT_TEXT,
    images: [PNG],
    tool_name: 'mcp__everything__get-tiny-image',
    tool_call_id: 'call_img',
  },
};

describe('tool-result images, per dialect', () => {
  for (const dialect of DIALECTS) {
    it(`${dialect}: an image-taking route carries the image where the dialect puts it; the body passes its schema`, async () => {
      const route = routeOf(dialect, true);
      if (route === undefined) throw new Error(`no image-taking ${dialect} route`);
      const { body } = await bodyFor(route);
      const at = IMAGE_AT[dialect](body);
      if (dialect === 'gemini-generate-content') expect(at).toMatchObject(EXPECTED[dialect] as object);
      else expect(at).toEqual(EXPECTED[dialect]);
    });

    const plain = routeOf(dialect, false);
    it(`${dialect}: a route without image input gets a typed note instead`, async () => {
      const { body } = await bodyFor(plain as string);
      const text = JSON.stringify(body);
      expect(text).not.toContain(PNG);
      expect(text).toContain('[image 1 left out: image/png; this model does not take images]');
    });
  }
});
