// A scripted model for agent-loop tests: its own local server on 127.0.0.1 that answers request N
// with step N of a script, in the wire form of one dialect (SSE tool-call and text streams), and
// records each request it received with what it checked about it. Each test starts its own, so a
// script a run did not use up can never answer another test's requests.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { afterAll, afterEach } from 'vitest';
import { removeHome, tempHome } from './cw-fixture.js';
import type { FaultDialect } from './fault-home.js';
import { data, type FaultHandler, type ReceivedRequest, startFaultServer } from './fault-server.js';
import { tempFolders } from './spawn-cw.js';

/** A tool call the scripted model makes: `arguments` is sent as is, so it may be anything, even not JSON. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** One reply of the script: text, tool calls, or both. */
export interface ScriptedReply {
  readonly text?: string;
  readonly calls?: readonly ScriptedCall[];
}

/** A tool result the request answering a step must carry: the result of call `id`, containing `includes`. */
export interface CarriedResult {
  readonly id: string;
  readonly includes: string;
}

/** One step: what the request must carry, and the reply to it. */
export interface ScriptedStep {
  readonly carries?: readonly CarriedResult[];
  /** Further checks of the request; returns the problems found. */
  readonly check?: (request: WireView) => string[];
  readonly reply: ScriptedReply;
  /** Send only the reply's first two blocks (its start and, with text, the first text) and hold the stream open. */
  readonly hold?: boolean;
  /** Send the reply's first two blocks, then the rest once this settles (a test's own gate, not a delay). */
  readonly pause?: Promise<void>;
}

/** What a request body holds of the tool loop, read in the dialect's own wire form. */
export interface WireView {
  readonly raw: string;
  readonly body: Record<string, unknown>;
  /** The calls and results in body order. */
  readonly sequence: readonly (
    | { kind: 'call'; id: string; name: string }
    | { kind: 'result'; id: string; content: string }
  )[];
  /** Every string value anywhere in the body, for "the model can read this" checks. */
  readonly strings: readonly string[];
}

/** One request the model received. */
export interface ScriptedRequest {
  readonly received: ReceivedRequest;
  readonly view: WireView;
  /** sha256 of the RFC 8785 canonical form of the body. */
  readonly canonicalSha256: string;
  /** sha256 of the bytes as received. */
  readonly wireSha256: string;
}

/** A running scripted model. */
export interface ScriptedModel {
  readonly origin: string;
  readonly dialect: FaultDialect;
  readonly requests: ScriptedRequest[];
  /** Everything a step's checks found wrong, as `request N: …`. */
  readonly problems: string[];
  /** Scripts the next requests, after those already scripted. (Not `then`: that would make the model a thenable.) */
  andThen(...steps: ScriptedStep[]): void;
  /** The tool result contents of request `index` (0-based), by call id. */
  resultsOf(index: number): Map<string, string>;
}

export const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** sha256 of the RFC 8785 canonical form of a JSON text, computed independently of cw. */
export function canonicalSha256(jsonText: string): string {
  return sha256(canonicalize(JSON.parse(jsonText)) as string);
}

/** Short timeouts for loopback; retries wait next to nothing. */
export const LOOP_TIMEOUTS = { connect_ms: 2_000, first_byte_ms: 5_000, idle_ms: 5_000, total_ms: 30_000 };
export const LOOP_RETRIES = { initial_delay_ms: 1, max_delay_ms: 5 };

/** Scripted models and homes that talk to them, for one test file. */
export interface ScriptedModels {
  /** Starts a model for the current test; it stops after the test. */
  model(dialect: FaultDialect, ...steps: ScriptedStep[]): Promise<ScriptedModel>;
  /** A fresh home whose active route `fault` is a custom route on `model`; `config` is merged over the top level. */
  home(model: ScriptedModel, config?: Record<string, unknown>): Promise<string>;
  /** The environment of a cw child on `home`: the home, an empty plugin data folder, the fake key, then `extra`. */
  envFor(home: string, extra?: Record<string, string>): Record<string, string>;
  /** A fresh, empty temp folder, removed after the file's tests. */
  folder(prefix: string): Promise<string>;
}

/** Scripted models for the calling file: one server per model, closed after each test. */
export function useScriptedModels(keyEnv: string, key: string): ScriptedModels {
  const folders = tempFolders();
  const homes: string[] = [];
  const running: { close(): Promise<void> }[] = [];
  let dataDir: string | undefined;

  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
  });
  afterAll(async () => {
    await Promise.all(homes.map(removeHome));
    await folders.cleanup();
  });

  return {
    async model(dialect, ...steps) {
      dataDir ??= await folders.make('cw-data-');
      const server = await startFaultServer();
      running.push(server);
      const requests: ScriptedRequest[] = [];
      const problems: string[] = [];
      const script: ScriptedStep[] = [];
      // The request count decides the reply: request N gets step N.
      const handler: FaultHandler = (received, response) => {
        const index = requests.length;
        const step = script[index];
        let view: WireView;
        try {
          view = viewOf(dialect, received.body);
        } catch (error) {
          problems.push(`request ${index + 1}: the body is not JSON (${String(error)})`);
          response.writeHead(400).end('bad body');
          return;
        }
        requests.push({
          received,
          view,
          canonicalSha256: canonicalSha256(received.body),
          wireSha256: sha256(Buffer.from(received.body, 'utf8')),
        });
        if (step === undefined) {
          problems.push(`request ${index + 1}: not in the script`);
          response.writeHead(500).end('not in the script');
          return;
        }
        problems.push(...checkStep(step, view).map((problem) => `request ${index + 1}: ${problem}`));
        response.writeHead(200, {
          'content-type': dialect === 'ollama-chat' ? 'application/x-ndjson' : 'text/event-stream',
        });
        const blocks = encodeReply(dialect, step.reply, index);
        if (step.pause !== undefined) {
          for (const block of blocks.slice(0, 2)) response.write(block);
          void step.pause.then(() => {
            for (const block of blocks.slice(2)) response.write(block);
            response.end();
          });
          return;
        }
        for (const block of step.hold === true ? blocks.slice(0, 2) : blocks) response.write(block);
        if (step.hold !== true) response.end();
      };
      const andThen = (...more: ScriptedStep[]): void => {
        script.push(...more);
        server.next(...more.map(() => handler));
      };
      andThen(...steps);
      return {
        origin: server.origin,
        dialect,
        requests,
        problems,
        andThen,
        resultsOf(index) {
          const request = requests[index];
          if (request === undefined) throw new Error(`request ${index + 1} never came`);
          const out = new Map<string, string>();
          for (const item of request.view.sequence) if (item.kind === 'result') out.set(item.id, item.content);
          return out;
        },
      };
    },
    async home(model, config = {}) {
      const home = await tempHome({
        route: 'fault',
        routes: {
          fault: {
            provider: 'custom',
            dialect: model.dialect,
            base_url: `${model.origin}/v1`,
            model: 'm',
            api_key_env: keyEnv,
          },
        },
        timeouts: LOOP_TIMEOUTS,
        retries: LOOP_RETRIES,
        ...config,
      });
      homes.push(home);
      return home;
    },
    envFor(home, extra = {}) {
      if (dataDir === undefined) throw new Error('start a model first');
      return { CW_HOME: home, CW_DATA_DIR: dataDir, [keyEnv]: key, ...extra };
    },
    folder(prefix) {
      return folders.make(prefix);
    },
  };
}

function checkStep(step: ScriptedStep, view: WireView): string[] {
  const problems: string[] = [];
  const results = new Map<string, string>();
  for (const item of view.sequence) if (item.kind === 'result') results.set(item.id, item.content);
  for (const carried of step.carries ?? []) {
    const content = results.get(carried.id);
    if (content === undefined) problems.push(`no tool result for ${carried.id}`);
    else if (!content.includes(carried.includes)) {
      problems.push(
        `the result for ${carried.id} lacks ${JSON.stringify(carried.includes)}: ${JSON.stringify(content)}`,
      );
    }
  }
  problems.push(...(step.check?.(view) ?? []));
  return problems;
}

/** The calls in a request body that no later result answers, and results that answer no earlier call. */
export function unanswered(view: WireView): { calls: string[]; orphans: string[] } {
  const open = new Set<string>();
  const orphans: string[] = [];
  for (const item of view.sequence) {
    if (item.kind === 'call') open.add(item.id);
    else if (open.has(item.id)) open.delete(item.id);
    else orphans.push(item.id);
  }
  return { calls: [...open], orphans };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the tool loop out of a request body, per dialect. */
export function viewOf(dialect: FaultDialect, raw: string): WireView {
  const body = JSON.parse(raw) as Record<string, Json>;
  const sequence: WireView['sequence'][number][] = [];
  const text = (value: Json | undefined): string =>
    typeof value === 'string'
      ? value
      : Array.isArray(value)
        ? value.map((part) => (isObject(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('')
        : '';
  switch (dialect) {
    case 'chat-completions':
      for (const message of Array.isArray(body['messages']) ? body['messages'] : []) {
        if (!isObject(message)) continue;
        if (message['role'] === 'assistant' && Array.isArray(message['tool_calls'])) {
          for (const call of message['tool_calls']) {
            if (!isObject(call) || !isObject(call['function'])) continue;
            sequence.push({ kind: 'call', id: String(call['id']), name: String(call['function']['name']) });
          }
        }
        if (message['role'] === 'tool') {
          sequence.push({ kind: 'result', id: String(message['tool_call_id']), content: text(message['content']) });
        }
      }
      break;
    case 'anthropic-messages':
      for (const message of Array.isArray(body['messages']) ? body['messages'] : []) {
        if (!isObject(message) || !Array.isArray(message['content'])) continue;
        for (const block of message['content']) {
          if (!isObject(block)) continue;
          if (block['type'] === 'tool_use')
            sequence.push({ kind: 'call', id: String(block['id']), name: String(block['name']) });
          if (block['type'] === 'tool_result') {
            sequence.push({ kind: 'result', id: String(block['tool_use_id']), content: text(block['content']) });
          }
        }
      }
      break;
    case 'gemini-generate-content':
      for (const content of Array.isArray(body['contents']) ? body['contents'] : []) {
        if (!isObject(content) || !Array.isArray(content['parts'])) continue;
        for (const part of content['parts']) {
          if (!isObject(part)) continue;
          const call = part['functionCall'];
          if (isObject(call)) sequence.push({ kind: 'call', id: String(call['id']), name: String(call['name']) });
          const result = part['functionResponse'];
          if (isObject(result) && isObject(result['response'])) {
            sequence.push({ kind: 'result', id: String(result['id']), content: text(result['response']['output']) });
          }
        }
      }
      break;
    case 'ollama-chat':
      for (const message of Array.isArray(body['messages']) ? body['messages'] : []) {
        if (!isObject(message)) continue;
        if (message['role'] === 'assistant' && Array.isArray(message['tool_calls'])) {
          for (const call of message['tool_calls']) {
            if (!isObject(call) || !isObject(call['function'])) continue;
            sequence.push({ kind: 'call', id: String(call['id']), name: String(call['function']['name']) });
          }
        }
        if (message['role'] === 'tool') {
          sequence.push({ kind: 'result', id: String(message['tool_call_id']), content: text(message['content']) });
        }
      }
      break;
    case 'openai-responses':
      for (const item of Array.isArray(body['input']) ? body['input'] : []) {
        if (!isObject(item)) continue;
        if (item['type'] === 'function_call')
          sequence.push({ kind: 'call', id: String(item['call_id']), name: String(item['name']) });
        if (item['type'] === 'function_call_output') {
          sequence.push({ kind: 'result', id: String(item['call_id']), content: text(item['output']) });
        }
      }
      break;
  }
  const strings: string[] = [];
  const walk = (value: Json): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) Object.values(value).forEach(walk);
  };
  walk(body);
  return { raw, body, sequence, strings };
}

/** A reply in the dialect's SSE wire form; arguments are streamed in two fragments. */
export function encodeReply(dialect: FaultDialect, reply: ScriptedReply, index: number): string[] {
  const calls = reply.calls ?? [];
  const text = reply.text ?? '';
  const halves = (value: string): [string, string] => {
    const at = Math.floor(value.length / 2);
    return [value.slice(0, at), value.slice(at)];
  };
  switch (dialect) {
    case 'chat-completions': {
      const chunk = (delta: Record<string, Json>, finish: string | null = null): string =>
        data({ id: `chatcmpl-${index}`, choices: [{ index: 0, delta, finish_reason: finish }] });
      const blocks = [chunk({ role: 'assistant', content: '' })];
      if (text !== '') blocks.push(chunk({ content: text }));
      calls.forEach((call, at) => {
        const [head, tail] = halves(call.arguments);
        blocks.push(
          chunk({
            tool_calls: [{ index: at, id: call.id, type: 'function', function: { name: call.name, arguments: head } }],
          }),
          chunk({ tool_calls: [{ index: at, function: { arguments: tail } }] }),
        );
      });
      blocks.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
      blocks.push(
        data({ id: `chatcmpl-${index}`, choices: [], usage: { prompt_tokens: 100 + index, completion_tokens: 7 } }),
      );
      blocks.push('data: [DONE]\n\n');
      return blocks;
    }
    case 'anthropic-messages': {
      const blocks = [
        data(
          {
            type: 'message_start',
            message: {
              id: `msg_${index}`,
              type: 'message',
              role: 'assistant',
              content: [],
              model: 'm',
              stop_reason: null,
              usage: { input_tokens: 100 + index, output_tokens: 1 },
            },
          },
          'message_start',
        ),
      ];
      let block = 0;
      if (text !== '') {
        blocks.push(
          data(
            { type: 'content_block_start', index: block, content_block: { type: 'text', text: '' } },
            'content_block_start',
          ),
          data(
            { type: 'content_block_delta', index: block, delta: { type: 'text_delta', text } },
            'content_block_delta',
          ),
          data({ type: 'content_block_stop', index: block }, 'content_block_stop'),
        );
        block++;
      }
      for (const call of calls) {
        const [head, tail] = halves(call.arguments);
        blocks.push(
          data(
            {
              type: 'content_block_start',
              index: block,
              content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
            },
            'content_block_start',
          ),
          data(
            { type: 'content_block_delta', index: block, delta: { type: 'input_json_delta', partial_json: head } },
            'content_block_delta',
          ),
          data(
            { type: 'content_block_delta', index: block, delta: { type: 'input_json_delta', partial_json: tail } },
            'content_block_delta',
          ),
          data({ type: 'content_block_stop', index: block }, 'content_block_stop'),
        );
        block++;
      }
      blocks.push(
        data(
          {
            type: 'message_delta',
            delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
            usage: { output_tokens: 7 },
          },
          'message_delta',
        ),
        data({ type: 'message_stop' }, 'message_stop'),
      );
      return blocks;
    }
    case 'gemini-generate-content': {
      // Calls come whole, with the API's ids; the first carries a thought signature, as Gemini 3 signs them.
      const usage = (output: number): Json => ({ promptTokenCount: 100 + index, candidatesTokenCount: output });
      const chunk = (parts: Json[], output: number, finishReason?: string): string =>
        `data: ${JSON.stringify({
          candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0 }],
          usageMetadata: usage(output),
        })}\r\n\r\n`;
      const blocks: string[] = [];
      if (text !== '') {
        const [head, tail] = halves(text);
        blocks.push(chunk([{ text: head }], 1), chunk([{ text: tail }], 2));
      }
      const parts: Json[] = calls.map((call, at) => ({
        functionCall: { id: call.id, name: call.name, args: argumentsObject(call.arguments) },
        ...(at === 0 ? { thoughtSignature: geminiSignature(index) } : {}),
      }));
      blocks.push(chunk(parts, 7, 'STOP'));
      return blocks;
    }
    case 'ollama-chat': {
      const line = (message: Record<string, Json>, extra: Record<string, Json> = {}): string =>
        `${JSON.stringify({ model: 'm', created_at: '2026-08-21T10:00:00Z', message: { role: 'assistant', content: '', ...message }, done: false, ...extra })}\n`;
      const blocks = [line({ content: '', thinking: 'thinking it over' })];
      if (text !== '') {
        const [head, tail] = halves(text);
        blocks.push(line({ content: head }), line({ content: tail }));
      }
      if (calls.length > 0) {
        blocks.push(
          line({
            tool_calls: calls.map((call, at) => ({
              id: call.id,
              function: { index: at, name: call.name, arguments: argumentsObject(call.arguments) },
            })),
          }),
        );
      }
      blocks.push(line({}, { done: true, done_reason: 'stop', prompt_eval_count: 100 + index, eval_count: 7 }));
      return blocks;
    }
    case 'openai-responses': {
      const event = (value: Record<string, Json>): string => data(value, String(value['type']));
      const output: Json[] = [];
      const blocks = [
        event({ type: 'response.created', response: { id: `resp_${index}`, status: 'in_progress', output: [] } }),
      ];
      if (text !== '') {
        blocks.push(
          event({
            type: 'response.output_item.added',
            output_index: 0,
            item: { type: 'message', role: 'assistant', content: [] },
          }),
          event({
            type: 'response.output_text.delta',
            item_id: `msg_${index}`,
            output_index: 0,
            content_index: 0,
            delta: text,
          }),
          event({
            type: 'response.output_text.done',
            item_id: `msg_${index}`,
            output_index: 0,
            content_index: 0,
            text,
          }),
        );
        output.push({
          type: 'message',
          id: `msg_${index}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text, annotations: [] }],
        });
      }
      for (const call of calls) {
        const at = output.length;
        const [head, tail] = halves(call.arguments);
        blocks.push(
          event({
            type: 'response.output_item.added',
            output_index: at,
            item: { type: 'function_call', id: `fc_${index}_${at}`, call_id: call.id, name: call.name, arguments: '' },
          }),
          event({ type: 'response.function_call_arguments.delta', output_index: at, delta: head }),
          event({ type: 'response.function_call_arguments.delta', output_index: at, delta: tail }),
          event({ type: 'response.function_call_arguments.done', output_index: at, arguments: call.arguments }),
        );
        output.push({
          type: 'function_call',
          id: `fc_${index}_${at}`,
          call_id: call.id,
          name: call.name,
          arguments: call.arguments,
          status: 'completed',
        });
      }
      blocks.push(
        event({
          type: 'response.completed',
          response: {
            id: `resp_${index}`,
            status: 'completed',
            output,
            usage: { input_tokens: 100 + index, output_tokens: 7, total_tokens: 107 + index },
          },
        }),
      );
      return blocks;
    }
  }
}

/** The thought signature the scripted Gemini model puts on the first call of reply `index` (base64). */
export function geminiSignature(index: number): string {
  return Buffer.from(`signed reply ${index}`).toString('base64');
}

// Native wires carry arguments as an object; text that is not one goes as an empty object.
function argumentsObject(text: string): Json {
  try {
    const parsed = JSON.parse(text) as Json;
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
