import { describe, expect, it } from 'vitest';
import { formatConfigProblem } from './config-problems.js';
import { checkConfigText, cwConfigSchema } from './cw-config.js';

const lines = async (text: string, dialectIds?: readonly string[]): Promise<string[]> => {
  const checked = await checkConfigText(text, dialectIds === undefined ? {} : { dialectIds });
  return checked.ok ? [] : checked.problems.map(formatConfigProblem);
};

describe('checkConfigText', () => {
  it('accepts comments and trailing commas', async () => {
    const checked = await checkConfigText(
      '{\n  // mine\n  "route": "moonshot", /* why */\n  "tools": { "deny": ["shell",], },\n}\n',
    );
    expect(checked.ok).toBe(true);
    if (checked.ok) {
      expect(checked.config.route).toBe('moonshot');
      expect(checked.config.tools.deny).toEqual(['shell']);
    }
  });

  it('a file cut off inside nested objects says the missing brace once', async () => {
    expect(await lines('{"route": "local", "routes": {\n')).toEqual([
      'config.json:2:1: not valid JSON: a closing } is expected',
    ]);
  });

  it('an empty file is an empty config', async () => {
    const checked = await checkConfigText('');
    expect(checked.ok && checked.config).toEqual(cwConfigSchema.parse({}));
  });

  it('lists every problem at its line and column, with what was found and what is accepted', async () => {
    const text = [
      '{',
      '  "reasoning": "extreme",',
      '  "modle": "x",',
      '  "routes": { "local": { "provider": "custom", "dialect": "chat_completions",',
      '    "base_url": "http://127.0.0.1:8080/v1", "model": "m" } },',
      '  "max_steps": 500,',
      '}',
    ].join('\n');
    expect(await lines(text, ['chat-completions', 'openai-responses'])).toEqual([
      'config.json:2:16: reasoning: not an accepted value; found "extreme"; accepted: off, minimal, low, medium, high, xhigh, max, auto',
      `config.json:3:3: modle: unknown field; did you mean model?; accepted: ${Object.keys(cwConfigSchema.shape).join(', ')}`,
      'config.json:4:59: routes.local.dialect: must be a kebab-case label; found "chat_completions"; accepted: chat-completions, openai-responses',
      'config.json:6:16: max_steps: too large; found 500; accepted: at most 200',
    ]);
  });

  it('a field added to the schema gets placed, described problems without any other change', async () => {
    const problems = await lines('{\n  "context": { "turn_context": "yes" }\n}');
    expect(problems).toEqual(['config.json:2:32: context.turn_context: wrong type; found "yes"; accepted: a boolean']);
  });

  it('lists every syntax problem with its position', async () => {
    expect(await lines('{\n  "route": "a"\n  "model": \n}')).toEqual([
      'config.json:3:3: not valid JSON: a comma is expected',
      'config.json:4:1: not valid JSON: a value is expected',
    ]);
  });

  it('refuses a field written twice, and a top level that is not an object', async () => {
    expect(await lines('{"route": "a",\n "route": "b"}')).toEqual([
      'config.json:2:2: route: written twice in one object; remove one (only the last would count)',
    ]);
    expect(await lines('[1]')).toEqual(['config.json:1:1: must be a JSON object ({ … })']);
  });

  it('never prints a secret-shaped value or key: it says the type, and fingerprints the key', async () => {
    const key = `sk-test-${'0'.repeat(32)}`;
    const text = JSON.stringify({ model: 5, reasoning: key, routes: { [key]: { provider: 'custom', dialect: 5 } } });
    const printed = (await lines(text)).join('\n');
    expect(printed).not.toContain(key);
    expect(printed).toContain('reasoning: not an accepted value; found a string; accepted: off,');
    expect(printed).toMatch(/routes\[sha256:[0-9a-f]{12}\]\.dialect: wrong type; found 5/);
    expect(printed).toContain('model: wrong type; found 5; accepted: a string');
  });

  it('keeps a __proto__ field as data and refuses it, never as a prototype', async () => {
    const checked = await checkConfigText('{"mcpServers": {"__proto__": {"command": "x"}}}');
    expect(checked.ok).toBe(false);
    expect(Object.getPrototypeOf(checked.parsed.value)).toBe(Object.prototype);
  });

  it('keeps a route that misses required fields aside, with what it misses; complete routes are as before', async () => {
    const text = JSON.stringify({
      routes: {
        box: { provider: 'custom', base_url: 'http://127.0.0.1:9/v1' },
        full: { provider: 'custom', dialect: 'chat-completions', base_url: 'http://127.0.0.1:9/v1', model: 'm' },
      },
    });
    const checked = await checkConfigText(text);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(Object.keys(checked.config.routes)).toEqual(['full']);
    expect(checked.config.incompleteRoutes).toEqual({ box: ['dialect', 'model'] });
    const none = await checkConfigText(JSON.stringify({ routes: {} }));
    expect(none.ok && none.config.incompleteRoutes).toBeUndefined();
  });
});
