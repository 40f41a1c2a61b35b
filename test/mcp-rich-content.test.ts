// What the published everything server returns beyond text reaches the model: an image as an image
// part on a route that takes images and as a typed note on one that does not, an embedded resource
// with its text, a resource link with its URI; and a server-wide allow rule runs its tools under
// read-only.
import { describe, expect, it } from 'vitest';
import { TEST_MODE_ENV, TEST_MODE_MARKER, TEST_ORIGIN_ENV } from '../core/src/transport/test-origin.js';
import { FAKE_KEY } from './support/cw-fixture.js';
import { everythingEntry } from './support/published-mcp-server.js';
import { useScriptedModels } from './support/scripted-model.js';
import { runCwChild, sessionMessages } from './support/spawn-cw.js';

const KEY_ENV = 'CW_MCP_RICH_KEY';
const KEY = `sk-test-${'3'.repeat(32)}`;
const models = useScriptedModels(KEY_ENV, KEY);
const IMAGE_CALL = { id: 'toolu_img', name: 'mcp__everything__get-tiny-image', arguments: '{}' };

describe('rich MCP results, with server-everything', () => {
  it('an image goes to an image-taking route as an image block inside the tool_result, and the session keeps it', async () => {
    const model = await models.model(
      'anthropic-messages',
      { reply: { calls: [IMAGE_CALL] } },
      { reply: { text: 'a tiny picture' } },
    );
    const home = await models.home(model, {
      route: 'anthropic',
      approval: 'read-only',
      mcpServers: { everything: await everythingEntry() },
    });
    const env = models.envFor(home, {
      ANTHROPIC_API_KEY: FAKE_KEY,
      [TEST_ORIGIN_ENV]: model.origin,
      [TEST_MODE_ENV]: TEST_MODE_MARKER,
    });
    const send = await runCwChild(['send', '--prompt', 'show me'], env);
    expect(send.code, send.stderr).toBe(0);
    expect(model.problems).toEqual([]);
    const second = model.requests[1]?.view.body['messages'] as { role: string; content: unknown }[];
    const blocks = second.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
    const result = blocks.find((block) => block.type === 'tool_result') as { content: unknown[] };
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/\[image 1: image\/png, /) });
    expect(result.content).toContainEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBOR/) },
    });
    const stored = (await sessionMessages(home)).find((message) => message['role'] === 'tool') as {
      images?: { media_type: string; data: string }[];
    };
    expect(stored.images?.[0]?.media_type).toBe('image/png');
  }, 30_000);

  it('a route without image input gets a typed note; embedded resources keep their text, links their URI', async () => {
    const model = await models.model(
      'chat-completions',
      {
        reply: {
          calls: [
            { id: 'call_img', name: IMAGE_CALL.name, arguments: '{}' },
            { id: 'call_res', name: 'mcp__everything__get-resource-reference', arguments: '{"resourceId":3}' },
            { id: 'call_links', name: 'mcp__everything__get-resource-links', arguments: '{"count":2}' },
          ],
        },
      },
      {
        carries: [
          { id: 'call_img', includes: '[image 1 left out: image/png; this model does not take images]' },
          { id: 'call_res', includes: 'Resource 3: This is a plaintext resource' },
          { id: 'call_links', includes: '<resource_link uri="demo://' },
        ],
        reply: { text: 'seen' },
      },
    );
    const home = await models.home(model, {
      approval: 'read-only',
      mcpServers: { everything: await everythingEntry() },
    });
    const send = await runCwChild(['send', '--prompt', 'look'], models.envFor(home));
    expect(send.code, send.stderr).toBe(0);
    expect(model.problems).toEqual([]);
    const results = model.resultsOf(1);
    expect(results.get('call_img')).not.toMatch(/iVBOR/);
    // The embedded resource's text itself, not a `[resource]` stand-in.
    expect(results.get('call_res')).toMatch(/<resource uri="[^"]+"[^>]*>\n.+\n<\/resource>/s);
    expect(results.get('call_res')).not.toContain('[resource]');
    expect(model.requests[1]?.received.body).not.toContain('iVBOR');
  }, 30_000);

  it('permissions.allow mcp__everything__* runs a tool the server does not mark read-only, under read-only', async () => {
    const call = { id: 'call_toggle', name: 'mcp__everything__toggle-simulated-logging', arguments: '{}' };
    for (const [allow, status] of [
      [['mcp__everything__*'], 'ok'],
      [['mcp__everything'], 'ok'],
      [[], 'refused'],
    ] as const) {
      const model = await models.model('chat-completions', { reply: { calls: [call] } }, { reply: { text: 'done' } });
      const home = await models.home(model, {
        approval: 'read-only',
        permissions: { allow, deny: [] },
        mcpServers: { everything: await everythingEntry() },
      });
      const send = await runCwChild(['send', '--prompt', 'toggle'], models.envFor(home));
      expect(send.code, send.stderr).toBe(0);
      expect(send.stderr).not.toContain('matches no tool');
      const stored = (await sessionMessages(home)).find((message) => message['role'] === 'tool');
      expect(stored?.['status']).toBe(status);
    }
  }, 60_000);
});
