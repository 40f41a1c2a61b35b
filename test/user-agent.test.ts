// Every request cw sends carries cw's User-Agent (docs/transport.md): a turn on each built-in
// dialect and a side request (a compaction summary), as they reach the provider; the manifest lists
// the header and its value; and the value never names the machine or its user.
import { hostname, release, userInfo } from 'node:os';
import fc from 'fast-check';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { previewRequest, sendTurn } from '@cw/core';
import { sendSideRequest, planSideRequest, sideSnapshot } from '../core/src/side-request/side-request.js';
import { formatUserAgent, userAgent } from '../core/src/transport/user-agent.js';
import { FAKE_KEY, builtinRegistry, removeHome, snapshotOf, tempHome } from './support/cw-fixture.js';

const ORIGIN = 'http://127.0.0.1:18097';
const KEY_ENV = 'CW_USER_AGENT_TEST_KEY';
const DIALECTS = [
  'chat-completions',
  'anthropic-messages',
  'openai-responses',
  'gemini-generate-content',
  'ollama-chat',
] as const;
const CORE_VERSION = (await import('../core/package.json', { with: { type: 'json' } })).default.version;

const homes: string[] = [];
beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(async () => {
  nock.enableNetConnect();
  await Promise.all(homes.map(removeHome));
});

async function snapshotFor(dialect: string) {
  const home = await tempHome({
    route: 'ua',
    routes: { ua: { provider: 'custom', dialect, base_url: `${ORIGIN}/v1`, model: 'm', api_key_env: KEY_ENV } },
    retries: { max: 0 },
  });
  homes.push(home);
  return { home, snapshot: await snapshotOf(home, await builtinRegistry()) };
}

/** An endpoint that answers only a request carrying exactly cw's User-Agent, once, and records what it got. */
function expectUserAgent(): { scope: nock.Scope; seen: string[] } {
  const seen: string[] = [];
  const scope = nock(ORIGIN)
    .matchHeader('user-agent', (value) => {
      seen.push(value);
      return value === userAgent();
    })
    .post(/.*/)
    .reply(400, { error: { message: 'stop here' } });
  return { scope, seen };
}

describe('the User-Agent', () => {
  it('is cw, the core version, the platform and Node, in that shape', () => {
    expect(userAgent()).toBe(`cw/${CORE_VERSION} (${process.platform} ${process.arch}; node ${process.versions.node})`);
  });

  for (const dialect of DIALECTS) {
    it(`goes with every ${dialect} request, and preview lists it`, async () => {
      const { home, snapshot } = await snapshotFor(dialect);
      const { manifest, prepared } = previewRequest(snapshot, 'hello', 'blocking');
      if (!('exact' in manifest.route) || prepared === null) throw new Error(`${dialect}: no exact route`);
      const headers = manifest.route.exact.request_headers;
      expect(headers.user_agent).toBe(userAgent());
      expect(headers.names).toContain('user-agent');
      expect(headers.names).toEqual(
        [...Object.keys(prepared.headers), ...(prepared.apiKeyEnv === null ? [] : [headers.names.at(-1)])].map((name) =>
          name?.toLowerCase(),
        ),
      );

      const { scope, seen } = expectUserAgent();
      await expect(
        sendTurn(snapshot, { home, prompt: 'hello', entrypoint: 'blocking', env: { [KEY_ENV]: FAKE_KEY } }),
      ).rejects.toThrow();
      expect(seen).toEqual([userAgent()]);
      expect(scope.isDone()).toBe(true);
    });
  }

  it('goes with a side request too', async () => {
    const { snapshot } = await snapshotFor('chat-completions');
    // A side request never carries the turn context, even where a turn would.
    const side = sideSnapshot({ ...snapshot, turnContext: '<turn-context>\n</turn-context>\n\n' });
    const plan = planSideRequest(side, 'summarize this', 'blocking');
    if (plan.status !== 'ready') throw new Error('the side request is blocked');
    expect(plan.prepared.turnContext.status).toBe('side-request');
    expect(plan.prepared.userMessage?.turn_context).toBeUndefined();
    const { scope, seen } = expectUserAgent();
    await expect(
      sendSideRequest(side, plan, { home: 'unused', entrypoint: 'blocking', env: { [KEY_ENV]: FAKE_KEY } }),
    ).rejects.toThrow();
    expect(seen).toEqual([userAgent()]);
    expect(scope.isDone()).toBe(true);
  });

  it('holds only checked words, whatever the parts it is built from', () => {
    const shape =
      /^cw\/(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?|unknown) \(([a-z0-9_]+) ([a-z0-9_]+); node (\d+\.\d+\.\d+|unknown)\)$/;
    fc.assert(
      fc.property(
        fc.option(
          fc.oneof(
            fc.string({ maxLength: 30 }),
            fc.stringMatching(/^\d{1,6}\.\d{1,6}\.\d{1,6}(-[0-9A-Za-z.-]{1,20})?$/),
          ),
          { nil: null },
        ),
        fc.oneof(fc.string({ maxLength: 20 }), fc.stringMatching(/^[a-z0-9_]{1,20}$/)),
        fc.oneof(fc.string({ maxLength: 20 }), fc.stringMatching(/^[a-z0-9_]{1,20}$/)),
        fc.oneof(fc.string({ maxLength: 20 }), fc.stringMatching(/^\d{1,6}\.\d{1,6}\.\d{1,6}$/)),
        (version, platform, arch, node) => {
          const value = formatUserAgent({ version, platform, arch, node });
          expect(value.length).toBeLessThanOrEqual(80);
          const fields = shape.exec(value);
          expect(fields, value).not.toBeNull();
          // Each field is the part it was given, whole, or `unknown`: nothing else reaches the value.
          const given = [version, platform, arch, node];
          fields?.slice(1).forEach((field, index) => {
            expect([given[index], 'unknown']).toContain(field);
          });
        },
      ),
    );
  });

  it('names neither this machine, nor its user, nor its kernel build', () => {
    const words = new Set(userAgent().split(/[\s/();]+/));
    for (const own of [hostname(), userInfo().username, release()])
      if (own.length > 0 && own !== process.platform && own !== process.arch) expect(words.has(own), own).toBe(false);
    expect(userAgent()).not.toContain(release());
  });
});
