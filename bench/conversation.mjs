// The conversation every serialization figure is measured on: a user prompt, then `turns` tool-call
// turns (an assistant tool call and its result), in cw's session form and in the AI SDK's message form.

const RESULT_TEXT =
  'src/parser.ts:42: expected "}" after the object literal; 日本語 and emoji 😀 survive, "quotes" and \\ stay. ';

/** cw session messages: `turns` tool-call turns after one user prompt (about 1.46 kB of chat body each). */
export function sessionMessages(turns) {
  const messages = [{ role: 'user', content: 'Fix the failing parser test and keep the public API.' }];
  for (let turn = 0; turn < turns; turn += 1) {
    const id = `call_${turn.toString(36).padStart(6, '0')}`;
    const name = `bench_tool_${turn % 55}`;
    messages.push({
      role: 'assistant',
      content: '',
      tool_calls: [{ id, name, arguments: JSON.stringify({ path: `src/module-${turn}.ts`, line: turn % 400 }) }],
    });
    messages.push({ role: 'tool', tool_call_id: id, name, content: `${RESULT_TEXT.repeat(10)}#${turn}` });
  }
  return messages;
}

/** The 55 tools the bench adds to cw's 5 workspace tools: 60 in all. */
export function benchTools() {
  return Array.from({ length: 55 }, (_, index) => ({
    name: `bench_tool_${index}`,
    description: `Bench tool ${index}: reads a region of a file and reports what it found there.`,
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'A path inside the workspace.' },
        line: { type: 'integer', minimum: 0, description: 'The first line to read.' },
        count: { type: 'integer', minimum: 1, maximum: 2000 },
        mode: { type: 'string', enum: ['text', 'outline', 'symbols'] },
      },
      required: ['path'],
      additionalProperties: false,
    },
  }));
}

/** The same history for the AI SDK: its ModelMessage form, tool inputs parsed as the SDK wants them. */
export function aiSdkMessages(messages, prompt) {
  const converted = messages.map((message) => {
    if (message.role === 'user') return { role: 'user', content: message.content };
    if (message.role === 'assistant')
      return {
        role: 'assistant',
        content: message.tool_calls.map((call) => ({
          type: 'tool-call',
          toolCallId: call.id,
          toolName: call.name,
          input: JSON.parse(call.arguments),
        })),
      };
    return {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: message.tool_call_id,
          toolName: message.name,
          output: { type: 'text', value: message.content },
        },
      ],
    };
  });
  converted.push({ role: 'user', content: prompt });
  return converted;
}

/** The config every figure runs under: a Chat Completions route whose window holds the largest body. */
export const BENCH_CONFIG = {
  route: 'bench',
  routes: {
    bench: {
      provider: 'custom',
      dialect: 'chat-completions',
      base_url: 'https://api.bench.test/v1',
      model: 'bench-model',
      api_key_env: 'BENCH_API_KEY',
      context_window: 50_000_000,
    },
  },
};
