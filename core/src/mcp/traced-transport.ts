import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { safeIdentifier } from '../redaction/safe-label.js';
import { safeErrorText } from '../redaction/safe-error-text.js';

/** Whether `CW_DEBUG` asks for the MCP protocol exchange (`mcp`, `all`, or a list holding one). */
export function mcpDebugEnabled(env: Readonly<Record<string, string | undefined>>): boolean {
  const words = (env['CW_DEBUG'] ?? '').split(/[\s,]+/);
  return words.includes('mcp') || words.includes('all') || words.includes('1');
}

/**
 * One line per JSON-RPC message, with what a person debugging needs and nothing the messages carry:
 * the direction, the kind, the method, the id and the size; an error's code and its redacted text.
 * Arguments, results and URLs are never shown (docs/mcp.md).
 */
export function describeMessage(direction: '→' | '←', message: JSONRPCMessage): string {
  const size = Buffer.byteLength(JSON.stringify(message), 'utf8');
  const record = message as Record<string, unknown>;
  const id =
    typeof record['id'] === 'number' || typeof record['id'] === 'string'
      ? ` #${safeIdentifier(String(record['id']))}`
      : '';
  const method = typeof record['method'] === 'string' ? ` ${methodLabel(record['method'])}` : '';
  const bytes = `(${size} bytes)`;
  if (method !== '') return `${direction} ${id === '' ? 'notification' : 'request'}${method}${id} ${bytes}`;
  const error = record['error'] as { code?: unknown; message?: unknown } | undefined;
  if (error !== undefined) {
    const code = typeof error.code === 'number' ? ` ${error.code}` : '';
    const text = typeof error.message === 'string' ? `: ${safeErrorText(error.message)}` : '';
    return `${direction} error${id}${code}${text} ${bytes}`;
  }
  return `${direction} result${id} ${bytes}`;
}

// MCP methods are short slash-separated words (`tools/call`, `notifications/progress`); anything
// else a server sends is shown as its fingerprint.
function methodLabel(method: string): string {
  return /^[A-Za-z][A-Za-z0-9_/.-]{0,63}$/.test(method) && !method.includes('..') ? method : safeIdentifier(method);
}

/** Wraps a transport so every message in and out is traced; everything else passes through. */
export class TracedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];
  readonly #inner: Transport;
  readonly #trace: (line: string) => void;

  constructor(inner: Transport, trace: (line: string) => void) {
    this.#inner = inner;
    this.#trace = trace;
    if (inner.setProtocolVersion) {
      const set = inner.setProtocolVersion.bind(inner);
      this.setProtocolVersion = (version: string) => set(version);
    }
  }

  setProtocolVersion?: ((version: string) => void) | undefined;

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  async start(): Promise<void> {
    this.#inner.onmessage = (message, extra) => {
      this.#trace(describeMessage('←', message));
      this.onmessage?.(message, extra);
    };
    this.#inner.onclose = () => {
      this.#trace('connection closed');
      this.onclose?.();
    };
    this.#inner.onerror = (error) => this.onerror?.(error);
    await this.#inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.#trace(describeMessage('→', message));
    await this.#inner.send(message, options);
  }

  async close(): Promise<void> {
    await this.#inner.close();
  }
}
