import { afterAll, describe, expect, it } from 'vitest';
import { previewRequest } from '@cw/core';
import { builtinRegistry, removeHome, snapshotOf, tempHome, writeSession } from './support/cw-fixture.js';
import { validateWireBody, type WireDialect } from './support/wire-schemas.js';
import {
  PROMPT,
  cellConfig,
  cellName,
  matrixCells,
  matrixRoutes,
  scenarioOf,
  type MatrixCell,
} from './support/wire-scenarios.js';

const weatherParameters = {
  type: 'object',
  properties: { city: { type: 'string', description: 'City name' }, unit: { type: 'string', enum: ['c', 'f'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const timeParameters = {
  type: 'object',
  properties: { timezone: { type: 'string' } },
  required: ['timezone'],
  additionalProperties: false,
};

function expectValid(dialect: WireDialect, body: unknown): void {
  const result = validateWireBody(dialect, body);
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
}

/** The body fails, the named error is among the reasons, and every reason is about `path`. */
function expectInvalid(dialect: WireDialect, body: unknown, expected: string, path: string): string[] {
  const result = validateWireBody(dialect, body);
  expect(result.valid).toBe(false);
  expect(result.errors).toContain(expected);
  for (const error of result.errors) expect(error.startsWith(path), error).toBe(true);
  return result.errors;
}

function without<T extends Record<string, unknown>>(body: T, key: keyof T): Omit<T, typeof key> {
  const { [key]: _dropped, ...rest } = body;
  return rest;
}

// ---------------------------------------------------------------------------------------------

describe('chat-completions (OpenAI CreateChatCompletionRequest)', () => {
  const plain = {
    model: 'gpt-5.1',
    messages: [
      { role: 'system', content: 'You are a terse assistant.' },
      { role: 'user', content: 'Say hello.' },
    ],
    stream: true,
    stream_options: { include_usage: true },
    max_completion_tokens: 1024,
  };

  const withTools = {
    model: 'gpt-5.1',
    messages: [
      { role: 'developer', content: [{ type: 'text', text: 'Use tools when they help.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Weather and time in Paris?' }] },
    ],
    tools: [
      {
        type: 'function',
        function: { name: 'get_weather', description: 'Current weather', parameters: weatherParameters, strict: true },
      },
      { type: 'function', function: { name: 'get_time', description: 'Local time', parameters: timeParameters } },
    ],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    reasoning_effort: 'low',
    max_completion_tokens: 2048,
  };

  const toolLoop = {
    model: 'deepseek-chat',
    messages: [
      { role: 'system', content: 'You are a weather bot.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21,"sky":"sunny"}' },
    ],
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherParameters } }],
    tool_choice: 'auto',
    max_tokens: 512,
    stream: false,
  };

  it('accepts a plain turn: system + user, stream, max tokens', () => {
    expectValid('chat-completions', plain);
    expectValid('chat-completions', { ...without(plain, 'max_completion_tokens'), max_tokens: 1024 });
  });

  it('accepts two function tools with tool_choice auto', () => {
    expectValid('chat-completions', withTools);
  });

  it('accepts an assistant tool call followed by its tool result', () => {
    expectValid('chat-completions', toolLoop);
  });

  it('rejects a body without model', () => {
    expectInvalid('chat-completions', without(plain, 'model'), "/ must have required property 'model'", '/');
  });

  it('rejects messages that is not an array', () => {
    expectInvalid('chat-completions', { ...plain, messages: 'Say hello.' }, '/messages must be array', '/messages');
  });

  it('rejects a function tool without function.name', () => {
    const [, second] = withTools.tools;
    const body = { ...withTools, tools: [{ type: 'function', function: { parameters: weatherParameters } }, second] };
    expectInvalid('chat-completions', body, "/tools/0/function must have required property 'name'", '/tools/0');
  });

  it('rejects a tool message without tool_call_id', () => {
    const messages = toolLoop.messages.map((m) => (m.role === 'tool' ? without(m, 'tool_call_id') : m));
    expectInvalid(
      'chat-completions',
      { ...toolLoop, messages },
      "/messages/3 must have required property 'tool_call_id'",
      '/messages/3',
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('openai-responses (OpenAI CreateResponse)', () => {
  const tools = [
    {
      type: 'function',
      name: 'get_weather',
      description: 'Current weather',
      parameters: weatherParameters,
      strict: true,
    },
    { type: 'function', name: 'get_time', description: 'Local time', parameters: timeParameters, strict: false },
  ];

  const turn = {
    model: 'gpt-5.1',
    instructions: 'You are a weather bot.',
    input: [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
      {
        type: 'function_call',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Paris","unit":"c"}',
      },
      { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21,"sky":"sunny"}' },
    ],
    tools,
    tool_choice: 'auto',
    parallel_tool_calls: true,
    reasoning: { effort: 'medium', summary: 'auto' },
    include: ['reasoning.encrypted_content'],
    store: false,
    stream: true,
    max_output_tokens: 4096,
  };

  it('accepts instructions, message + function_call + function_call_output items, flat tools, reasoning', () => {
    expectValid('openai-responses', turn);
  });

  it('accepts the short input forms (string, untyped easy message) and a replayed reasoning item', () => {
    expectValid('openai-responses', { model: 'gpt-5.1', input: 'Say hello.', reasoning: { effort: 'low' } });
    expectValid('openai-responses', {
      model: 'gpt-5.1',
      input: [
        { role: 'developer', content: 'Be terse.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Say hello.' }] },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: 'Greeting.' }],
          encrypted_content: 'gAAAAB',
        },
      ],
    });
  });

  it('rejects a tool in the nested chat shape {type:"function", function:{…}}', () => {
    const nested = { type: 'function', function: { name: 'get_weather', parameters: weatherParameters } };
    const errors = expectInvalid(
      'openai-responses',
      { ...turn, tools: [nested, tools[1]] },
      "/tools/0 must have required property 'name'",
      '/tools/0',
    );
    expect(errors).toContain("/tools/0 must have required property 'strict'");
  });

  it('rejects reasoning.effort outside the enum', () => {
    expectInvalid(
      'openai-responses',
      { ...turn, reasoning: { effort: 'extreme' } },
      '/reasoning/effort must be equal to one of the allowed values ("none", "minimal", "low", "medium", "high", "xhigh", "max")',
      '/reasoning',
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('anthropic-messages (Anthropic CreateMessageParams)', () => {
  const plain = {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    system: 'You are a terse assistant.',
    messages: [{ role: 'user', content: 'Say hello.' }],
    stream: true,
  };

  const toolTurn = {
    model: 'claude-sonnet-4-5',
    max_tokens: 8192,
    system: [
      { type: 'text', text: 'You are a weather bot.' },
      { type: 'text', text: 'Answer in one sentence.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ],
    tools: [
      { name: 'get_weather', description: 'Current weather', input_schema: weatherParameters, strict: true },
      { name: 'get_time', description: 'Local time', input_schema: timeParameters },
    ],
    tool_choice: { type: 'auto' },
    thinking: { type: 'enabled', budget_tokens: 2048 },
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Call the weather tool.', signature: 'EqQBCkYIARgCIkB' },
          { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris', unit: 'c' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01', content: '{"temp":21,"sky":"sunny"}' },
          { type: 'text', text: 'And the time?' },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_02', name: 'get_time', input: { timezone: 'Europe/Paris' } }],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_02',
            content: [{ type: 'text', text: '14:05' }],
            is_error: false,
          },
        ],
      },
    ],
    stream: true,
  };

  it('accepts a plain turn: system string + user, stream, max_tokens', () => {
    expectValid('anthropic-messages', plain);
  });

  it('accepts system text blocks, tools with input_schema, tool_choice auto, enabled thinking, tool_use/tool_result', () => {
    expectValid('anthropic-messages', toolTurn);
  });

  it('rejects a body without max_tokens', () => {
    expectInvalid(
      'anthropic-messages',
      without(plain, 'max_tokens'),
      "/ must have required property 'max_tokens'",
      '/',
    );
  });

  it('rejects a body without model', () => {
    expectInvalid('anthropic-messages', without(plain, 'model'), "/ must have required property 'model'", '/');
  });

  it('rejects messages that is not an array', () => {
    expectInvalid('anthropic-messages', { ...plain, messages: 'Say hello.' }, '/messages must be array', '/messages');
  });

  it('rejects an OpenAI-style top-level key (additionalProperties: false)', () => {
    expectInvalid(
      'anthropic-messages',
      { ...plain, reasoning_effort: 'high' },
      '/ must NOT have additional properties (reasoning_effort)',
      '/',
    );
  });

  it('rejects thinking.budget_tokens below 1024', () => {
    const errors = validateWireBody('anthropic-messages', {
      ...toolTurn,
      thinking: { type: 'enabled', budget_tokens: 512 },
    });
    expect(errors.valid).toBe(false);
    expect(errors.errors).toContain('/thinking/budget_tokens must be >= 1024');
  });
});

// ---------------------------------------------------------------------------------------------

/**
 * A wire form a provider documents that its published schema does not describe. The one list of
 * them; each names its source, and docs/wire-conformance.md carries the same list. An error is
 * forgiven only when a listed exception names its dialect, its route and the error text exactly.
 */
interface SchemaException {
  readonly name: string;
  readonly dialect: WireDialect;
  readonly routes: readonly string[];
  /** The validator's error line, as validateWireBody words it. */
  readonly error: string;
  /** Where the provider documents the form. */
  readonly source: string;
}

/** Every documented exception the matrix below allows; none is needed today. */
const SCHEMA_EXCEPTIONS: readonly SchemaException[] = [];

const registry = await builtinRegistry();

describe('every body of the scenario matrix, whole, against its published schema', () => {
  const homes: string[] = [];
  const used = new Set<string>();
  afterAll(async () => {
    await Promise.all(homes.map(removeHome));
  });

  /** The errors of one cell's body that no listed exception covers. */
  async function unexcused(cell: MatrixCell): Promise<string[]> {
    const home = await tempHome(cellConfig(cell));
    homes.push(home);
    const scenario = scenarioOf(cell);
    if (scenario.history.length > 0) await writeSession(home, 'default', [...scenario.history], null);
    const snapshot = (scenario.adjust ?? ((loaded) => loaded))(await snapshotOf(home, registry));
    const { prepared } = previewRequest(snapshot, PROMPT, cell.entrypoint);
    if (prepared === null) return ['the request is blocked'];
    const dialect = prepared.dialect as WireDialect;
    return validateWireBody(dialect, prepared.body).errors.filter((error) => {
      const exception = SCHEMA_EXCEPTIONS.find(
        (entry) => entry.dialect === dialect && entry.routes.includes(cell.route) && entry.error === error,
      );
      if (exception) used.add(exception.name);
      return exception === undefined;
    });
  }

  for (const route of matrixRoutes(registry)) {
    it(`${route}: every entry point and scenario, no item left out`, async () => {
      const problems: Record<string, string[]> = {};
      for (const cell of matrixCells(registry).filter((entry) => entry.route === route)) {
        const errors = await unexcused(cell);
        if (errors.length > 0) problems[cellName(cell)] = errors;
      }
      expect(problems).toEqual({});
    });
  }

  it('every listed exception is documented and still needed by some body', () => {
    for (const exception of SCHEMA_EXCEPTIONS) {
      expect(exception.source, exception.name).toMatch(/^(https:\/\/|docs\/)/);
      expect(used.has(exception.name), `${exception.name} is listed but no body needs it`).toBe(true);
    }
  });
});
